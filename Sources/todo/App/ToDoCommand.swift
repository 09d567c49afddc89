import ArgumentParser

/// `todo`: Zarra's ToDo application in the terminal, on an ObjectGraph store.
public struct ToDoCommand: ParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "Zarra's ToDo application: to-dos with due dates, in categories, and a minute timer that alerts.",
        discussion: """
            The store lives in $XDG_DATA_HOME/todo (else ~/.local/share/todo) unless --store says \
            otherwise. Times are read and printed in your time zone; WHEN is an ISO date-time \
            (2026-11-22T14:30), a time today (14:30) or an offset from now (+15m, +2h, +1d; -1d \
            for a day ago).
            """,
        subcommands: [
            Add.self, List.self, Show.self, Edit.self, Done.self, Delete.self,
            Categories.self, Watch.self, Migrate.self,
        ])

    /// Creates the command.
    public init() {}
}
