import Foundation

/// libFuzzer's driver (compiler-rt's FuzzerDriver), given the function it calls with each input.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the command line's flags and `testOneInput`, then exits with its status.
///
/// SwiftPM gives an executable the main() of its top-level code (it links `main` to the module's
/// own entry point), so the main() that -sanitize=fuzzer brings is never linked in: each
/// target's top-level code calls this instead, which starts the same driver.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
