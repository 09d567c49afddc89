// libFuzzer's target for the xmlstore reader (its check: FuzzedReaders.all in Fuzz/Readers). Built
// only by Fuzz/run.sh, with -sanitize=fuzzer.
import FuzzDriver
import ReaderFuzzing

/// Called by libFuzzer with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntry.run("xmlstore", bytes, size)
}

runLibFuzzer(fuzzOneInput)
