import Foundation
import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = ThumbnailFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// `VITRINE_FUZZ_SEED=FILE` writes a cache file for the target's key there (scripts/fuzz seeds the
/// corpus with it) and exits.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    if let path = ProcessInfo.processInfo.environment["VITRINE_FUZZ_SEED"] {
        guard let seed = ThumbnailFuzzTarget.seed(), FileManager.default.createFile(atPath: path, contents: Data(seed))
        else { fatalError("cannot write a seed to \(path)") }
        exit(0)
    }
    return 0
}
