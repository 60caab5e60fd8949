import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = ClipFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
