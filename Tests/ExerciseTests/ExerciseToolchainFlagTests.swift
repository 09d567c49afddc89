import Testing

@testable import ExerciseRunner

// An exercise is compiled with the module flags of the catalog's own compile command. SwiftNIO's
// C modules (which chapter 10 links) come as `-Xcc -I -Xcc PATH`: the four stay together, or clang
// reads the next flag as the include folder and every exercise fails to find its modules.
@Suite struct ExerciseToolchainFlagTests {
    @Test func aSplitIncludeFolderKeepsItsFourParts() {
        let arguments = [
            "swiftc", "-module-name", "ExerciseCatalog", "-Xcc", "-I", "-Xcc", "/nio/CNIOAtomics/include",
            "-Xcc", "-fmodule-map-file=/nio/CNIOAtomics/module.modulemap", "-I", "/modules", "-Onone",
        ]
        #expect(
            ExerciseToolchain.moduleFlags(from: arguments) == [
                "-Xcc", "-I", "-Xcc", "/nio/CNIOAtomics/include",
                "-Xcc", "-fmodule-map-file=/nio/CNIOAtomics/module.modulemap", "-I", "/modules",
            ])
    }
}
