import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = MetadataFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size), container: .png)
    return 0
}
