// The `migration-policies` chapter: `swift run migration-policies`, `--list`, `--section NAME`.
import ArgumentParser
import MigrationPoliciesChapter
import WorkbookSupport

@main
struct MigrationPolicies: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration-policies",
        abstract:
            "Chapter 5: mapping models and custom migration policies: Zarra's Listing 12, its errors, a progressive migration."
    )

    @OptionGroup var options: ChapterOptions

    func run() throws { try options.run(MigrationPoliciesChapter.self) }
}
