/// "Did you mean": the candidate closest to a mistyped name, if it is close enough to be the intent.
enum Suggestion {
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let typedLower = typed.lowercased()
        let limit = max(2, typed.count / 3)
        let scored = candidates.map { (candidate: $0, distance: editDistance(typedLower, $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else {
            return nil
        }
        return best.candidate
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one character.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
