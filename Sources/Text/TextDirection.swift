/// The direction of a paragraph: given, or found from its first strong character (Unicode's rule
/// P2-P3, as FriBidi applies it).
public enum TextDirection: Equatable, Sendable {
    case auto, leftToRight, rightToLeft
}
