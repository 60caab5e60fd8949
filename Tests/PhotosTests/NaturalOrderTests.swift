import Photos
import TestSupport
import Testing

/// The natural order with keys made once per name (issue #22: a name folded per comparison made
/// start-up with 100,000 photos quadratic-looking and slow): the same order as the pairwise
/// definition, and each name asked for once.
@Suite struct NaturalOrderTests {
    /// The definition, as it was written before the keys: fold both names, walk them, numbers by
    /// value, then the plain scalars.
    static func reference(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }
        var i = 0, j = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let startI = i, startJ = j
                while i < x.count, isDigit(x[i]) { i += 1 }
                while j < y.count, isDigit(y[j]) { j += 1 }
                let digitsX = x[startI..<i].drop { $0 == "0" }, digitsY = y[startJ..<j].drop { $0 == "0" }
                if digitsX.count != digitsY.count { return digitsX.count < digitsY.count }
                if let (p, q) = zip(digitsX, digitsY).first(where: { $0 != $1 }) { return p.value < q.value }
                continue
            }
            if x[i] != y[j] { return x[i].value < y[j].value }
            i += 1
            j += 1
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    /// Names built from the pieces that make the order hard: case, leading zeros, digit runs longer
    /// than an Int, digits at the end, letters whose lower case is longer (İ), accents composed and
    /// not, the empty name.
    static func trickyNames(count: Int, seed: UInt64) -> [String] {
        let pieces = ["img", "IMG", "Img", "_", " ", "(", ")", "-", ".", "0", "00", "1", "01", "2", "9", "10", "007",
                      "99999999999999999999999", "099999999999999999999999", "é", "e\u{301}", "İ", "ß", "Z", "z",
                      ".jpg", ".JPG", "a", "b"]
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
    }

    @Test func keysGiveTheOrderOfThePairwiseDefinitionOnTrickyNames() {
        let names = Self.trickyNames(count: 3000, seed: 22)
        let keyed = NaturalOrder.sorted(names, by: { $0 })
        #expect(keyed == names.sorted(by: Self.reference))
        #expect(names.sorted(by: NaturalOrder.areInIncreasingOrder) == keyed)
        // Every pair agrees, not just the sorted result (a sort may never compare two neighbours' keys).
        let sample = Array(names.prefix(150))
        let disagreements = sample.flatMap { a in sample.map { b in (a, b) } }
            .filter { a, b in (NaturalOrder.Key(a) < NaturalOrder.Key(b)) != Self.reference(a, b) }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func aSortAsksForEachNameOnce() {
        let names = Self.trickyNames(count: 5000, seed: 7)
        var asked = 0
        let sorted = NaturalOrder.sorted(names, by: { name -> String in
            asked += 1
            return name
        })
        #expect(asked == names.count)
        #expect(sorted.count == names.count)
    }
}
