/// File-name order as people expect it: case-insensitive, and runs of digits compared as numbers,
/// so "img2" comes before "img10". Ties fall back to plain code-point order, so the order is total.
///
/// A name's `Key` (its case-folded and its own scalars) is made once; comparing two keys allocates
/// nothing. A sort of n names makes n keys (`sorted(_:by:)`), not two per comparison: folding a
/// name per comparison made start-up with 100,000 photos spend most of its time lower-casing.
public enum NaturalOrder {
    /// A name as the order compares it.
    public struct Key: Comparable, Sendable {
        /// The lower-cased name's scalars.
        let folded: [UInt32]
        /// The name's own scalars, for the tie-break.
        let scalars: [UInt32]

        public init(_ name: String) {
            folded = name.lowercased().unicodeScalars.map(\.value)
            scalars = name.unicodeScalars.map(\.value)
        }

        public static func < (a: Key, b: Key) -> Bool {
            let x = a.folded, y = b.folded
            var i = 0, j = 0
            while i < x.count, j < y.count {
                if isDigit(x[i]), isDigit(y[j]) {
                    let startI = i, startJ = j
                    while i < x.count, isDigit(x[i]) { i += 1 }
                    while j < y.count, isDigit(y[j]) { j += 1 }
                    // Compare the numbers without converting (they may be longer than an Int).
                    let digitsX = x[startI..<i].drop { $0 == zero }, digitsY = y[startJ..<j].drop { $0 == zero }
                    if digitsX.count != digitsY.count { return digitsX.count < digitsY.count }
                    if let (p, q) = zip(digitsX, digitsY).first(where: { $0 != $1 }) { return p < q }
                    continue
                }
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1
                j += 1
            }
            if x.count - i != y.count - j { return x.count - i < y.count - j }
            return a.scalars.lexicographicallyPrecedes(b.scalars)
        }

        private static let zero = UInt32(UInt8(ascii: "0"))
        private static func isDigit(_ s: UInt32) -> Bool { s >= zero && s <= zero + 9 }
    }

    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        Key(a) < Key(b)
    }

    /// `elements` in the natural order of their names, each name asked for and folded once.
    public static func sorted<Element>(_ elements: [Element], by name: (Element) -> String) -> [Element] {
        elements.map { (key: Key(name($0)), element: $0) }.sorted { $0.key < $1.key }.map(\.element)
    }
}
