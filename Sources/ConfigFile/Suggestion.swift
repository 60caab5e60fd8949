/// "Did you mean": the candidate closest to a mistyped name, if it is close enough to be the intent.
///
/// Each unknown key of a file is looked up, so the cost per key is bounded: the candidates are
/// prepared once, a candidate whose length alone is too far off is skipped, and a distance stops
/// being computed as soon as it cannot be within the limit (a 1 MB key costs one pass over it).
enum Suggestion {
    /// A name to propose, with what the typed name is compared with (lowercased, as scalars).
    struct Candidate: Sendable {
        /// What the suggestion says ("grid.columns").
        let answer: String
        let scalars: [Unicode.Scalar]

        /// `answer` is proposed when `matching` is close to what was typed.
        init(_ answer: String, matching: String? = nil) {
            self.answer = answer
            scalars = Array((matching ?? answer).lowercased().unicodeScalars)
        }
    }

    static func closest(to typed: String, among candidates: [String]) -> String? {
        closest(to: typed, among: candidates.map { Candidate($0) })
    }

    /// The first of the closest candidates, within a third of the typed name's length (at least 2).
    static func closest(to typed: String, among candidates: [Candidate]) -> String? {
        let typedScalars = Array(typed.lowercased().unicodeScalars)
        let limit = max(2, typedScalars.count / 3)
        var best: (answer: String, distance: Int)?
        for candidate in candidates {
            let bound = min(limit, (best?.distance ?? limit + 1) - 1)
            guard bound >= 0, let distance = editDistance(typedScalars, candidate.scalars, atMost: bound) else { continue }
            best = (candidate.answer, distance)
        }
        return best?.answer
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one character.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        return editDistance(a, b, atMost: max(a.count, b.count))!
    }

    /// The distance when it is at most `limit`; nil, as early as that is known, when it is more.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Plain index loops: this runs for every unknown key of a file, tens of thousands.
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        var j = 0
        while j <= b.count {
            previous[j] = j
            j += 1
        }
        var i = 1
        while i <= a.count {
            current[0] = i
            var rowMinimum = i
            let scalar = a[i - 1]
            j = 1
            while j <= b.count {
                let substitution = previous[j - 1] + (scalar == b[j - 1] ? 0 : 1)
                let value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                current[j] = value
                if value < rowMinimum { rowMinimum = value }
                j += 1
            }
            // Every later row's values are at least this row's minimum.
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
            i += 1
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
