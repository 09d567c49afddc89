import Foundation
import Testing

@testable import workbook

// `workbook model describe`, run in process on the ObjectGraph tests' fixtures.
@Suite struct ModelCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ObjectGraphTests/Fixtures")

    @Test func describesTheCurrentVersionOfABundle() throws {
        let report = try ModelCommand.describe(Self.fixtures.appendingPathComponent("ToDo.xcdatamodeld"))
        #expect(
            report == """
                ToDo.xcdatamodeld: version ToDo 2 (current) of ToDo, ToDo 2
                Version identifier: 2
                Version checksum: 0UyOboFGi95yNOeXcvyZwVqKuF+V1/7hsVBK7EGFJ/k=

                Category
                  Attributes:
                    name  String  required
                  Relationships:
                    todos  -> ToDo, inverse category, to-many, optional, delete rule Cascade
                  Version hash: 9azUU8F4js6xqI/XEbFxDOzgPA5uft0YnxVz+njqJi4=

                ToDo
                  Attributes:
                    completed      Boolean  optional
                    doNotAlert     Boolean  required, default NO
                    dueDate        Date     required
                    lastAlertDate  Date     optional
                    title          String   required
                  Relationships:
                    category  -> Category, inverse todos, to-one, optional, delete rule Nullify
                  Version hash: N1MUVMVKtF+Yrx4+6FPWVtZAjc+IRbaXNqulqbN4vKg=
                """)
        // Deterministic: the same text every time.
        #expect(try ModelCommand.describe(Self.fixtures.appendingPathComponent("ToDo.xcdatamodeld")) == report)
    }

    @Test func describesAnOlderVersionOnRequest() throws {
        let report = try ModelCommand.describe(
            Self.fixtures.appendingPathComponent("ToDo.xcdatamodeld"), version: "ToDo")
        #expect(
            report.hasPrefix(
                "ToDo.xcdatamodeld: version ToDo of ToDo, ToDo 2\nVersion identifier: 1\nVersion checksum: 9uB3aKaD0bEoqokgFr3yY9APA6g35vYvm7Wp4g8clIQ=\n"
            ))
        #expect(!report.contains("lastAlertDate"))
        // Category did not change between the versions, so neither did its hash.
        #expect(report.contains("Version hash: 9azUU8F4js6xqI/XEbFxDOzgPA5uft0YnxVz+njqJi4="))
        #expect(throws: Error.self) {
            try ModelCommand.describe(Self.fixtures.appendingPathComponent("ToDo.xcdatamodeld"), version: "ToDo 7")
        }
    }

    @Test func listsWhatWasSkippedWithRelativePaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(
            """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
                <entity name="Tag"><attribute name="label" optional="YES" attributeType="String" storedInTruthFile="YES"/></entity>
            </model>
            """.utf8
        ).write(to: model.appendingPathComponent("contents"))
        let report = try ModelCommand.describe(model)
        #expect(report.hasPrefix("Notes.xcdatamodel: a model\nVersion checksum: "))
        #expect(report.contains("\n\nNote\n  Attributes:\n    text  String  optional\n"))
        #expect(
            report.hasSuffix(
                """

                Warnings (1):
                  Notes.xcdatamodel/contents:3: setting storedInTruthFile="YES" of attribute label skipped: ObjectGraph does not use it
                """))
        #expect(!report.contains(folder.path))
    }
}
