/// A failure a command finds while it runs (a file that is not a model, a folder that cannot
/// be written, an exercise name that does not exist): ArgumentParser prints it as
/// `Error: ...`. A `ValidationError` thrown from `run()` would add the root command's usage
/// line (`Usage: workbook <subcommand>`), which says nothing about the command that failed;
/// each message here says what to give instead.
struct WorkbookError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    let description: String

    /// An error with this message.
    init(_ description: String) { self.description = description }
}
