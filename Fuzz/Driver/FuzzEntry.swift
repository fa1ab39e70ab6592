import Foundation
import FuzzTargets

/// The target this process fuzzes, chosen once before any input runs.
nonisolated(unsafe) var selectedTarget: FuzzTarget = .rtp

/// libFuzzer's entry point for programs that have a `main` of their own (LLVM 12 and later).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The process's entry point. SwiftPM names an executable module's `main` after the module, so
/// libFuzzer's own `main` cannot be used; this one picks the target from `PKRELAY_FUZZ_TARGET`
/// (an unknown or missing name stops the process with the list of names) and hands the
/// command line to libFuzzer.
@_cdecl("pkrelay_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    guard let raw = getenv("PKRELAY_FUZZ_TARGET"), let target = FuzzTarget(rawValue: String(cString: raw)) else {
        FileHandle.standardError.write(Data("pkrelay-fuzz: set PKRELAY_FUZZ_TARGET to one of: \(names)\n".utf8))
        return 2
    }
    selectedTarget = target
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        selectedTarget.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
