/// The version `/metrics` (vitrine_build_info) and `/status` report.
public enum VitrineVersion {
    public static let current = "0.10.0"
}
