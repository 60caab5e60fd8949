import Clips

extension ClipPlayer {
    /// The product's clips: FFmpeg's `ClipReader` on the file, the hardware decoder tried first.
    /// (Until the reader is merged: no clip plays, each shows its poster.)
    public static let readers: SourceFactory = { path in
        throw ClipReaderMissing(path: path)
    }
}

struct ClipReaderMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "this build has no clip reader" }
}
