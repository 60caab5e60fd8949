import Clips

extension ClipPlayer {
    /// The product's clips: FFmpeg's `ClipReader` on the file, the hardware decoder tried first;
    /// the log says which decoder runs.
    public static let readers: SourceFactory = { path in
        let reader = try ClipReader(path: path, preferHardware: true)
        return (reader, "\(reader.decoderName) (\(reader.isHardware ? "hardware" : "software"))")
    }
}
