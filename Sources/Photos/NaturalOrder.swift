/// File-name order as people expect it: case-insensitive, and runs of digits compared as numbers,
/// so "img2" comes before "img10". Ties fall back to plain code-point order, so the order is total.
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let startI = i, startJ = j
                while i < x.count, isDigit(x[i]) { i += 1 }
                while j < y.count, isDigit(y[j]) { j += 1 }
                // Compare the numbers without converting (they may be longer than an Int).
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

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }
}
