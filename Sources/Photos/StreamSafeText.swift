import Foundation

/// Unicode's Stream-Safe Text Format (UAX #15 §13): no more than 30 non-starters (characters of
/// canonical combining class other than 0, counted in their compatibility decomposition) in a row;
/// before a character that would make more, a COMBINING GRAPHEME JOINER (U+034F, a starter that
/// draws nothing) is inserted. Normalising, hashing and comparing a string canonically reorders its
/// runs of non-starters, which is quadratic in a run's length: a caption of 32,000 marks after one
/// letter cost seconds every time. Bounded, every later step is linear. No real text comes near
/// the bound (the longest sequence of marks a script needs is far shorter), so text that is not
/// hostile is unchanged.
enum StreamSafeText {
    static let maxNonStarters = 30
    static let graphemeJoiner: Unicode.Scalar = "\u{034F}"

    static func bounded(_ scalars: some Collection<Unicode.Scalar>) -> String.UnicodeScalarView {
        var out = String.UnicodeScalarView()
        var run = 0
        var counts: [Unicode.Scalar: NonStarters] = [:]
        for scalar in scalars {
            let nonStarters: NonStarters
            if scalar.isASCII {
                nonStarters = .none
            } else if let known = counts[scalar] {
                nonStarters = known
            } else {
                nonStarters = NonStarters(scalar)
                counts[scalar] = nonStarters
            }
            if run + nonStarters.leading > maxNonStarters {
                out.append(graphemeJoiner)
                run = 0
            }
            out.append(scalar)
            run = nonStarters.all ? run + nonStarters.leading : nonStarters.trailing
        }
        return out
    }

    /// The non-starters at the start and at the end of a character's compatibility decomposition
    /// (NFKD), and whether there is nothing else in it.
    struct NonStarters: Equatable {
        var leading: Int
        var trailing: Int
        var all: Bool

        static let none = NonStarters(leading: 0, trailing: 0, all: false)

        init(leading: Int, trailing: Int, all: Bool) {
            self.leading = leading
            self.trailing = trailing
            self.all = all
        }

        init(_ scalar: Unicode.Scalar) {
            let decomposition = Array(String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars)
            func isNonStarter(_ s: Unicode.Scalar) -> Bool { s.properties.canonicalCombiningClass != .notReordered }
            leading = decomposition.prefix { isNonStarter($0) }.count
            trailing = decomposition.reversed().prefix { isNonStarter($0) }.count
            all = leading == decomposition.count
        }
    }
}
