/// The one way an Apple-named call stops the program where Apple's raises an Objective-C
/// exception (which Swift cannot catch): it runs the throwing twin and ends the program with
/// the exception's name and the twin's error, so every such call fails alike.
///
/// Package-visible: the CoreData module's Apple initializers use it too.
package func raisingAsApple<T>(_ exception: String = "NSInvalidArgumentException", _ body: () throws -> T) -> T {
    do { return try body() } catch { fatalError("\(exception): \(error)") }
}
