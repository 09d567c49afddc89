import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import ToDoApp

/// `todo watch` on a PostgreSQL store (`--store postgres://...`) whose server restarts: the
/// check that meets the server down says so and the timer goes on; once the server is back,
/// the store reconnects and the next check alerts what another process added meanwhile.
@Suite struct WatchPostgresTests {
    @Test("todo watch keeps going across a restart of its PostgreSQL server, and alerts a to-do added after it")
    func watchKeepsGoingAcrossAServerRestart() throws {
        guard let server = try PostgresTestServer.makePrivate() else { return }
        defer { server.shutDown() }
        let store = server.url(schema: "todo").absoluteString
        let other = try ToDoHarness()
        try other.run("add", "Pay rent", "--due", "+4m", "--store", store)

        let clock = WatchHistoryTests.InterleavingClock()
        // After the first check the server crashes; after the second it is back, and another
        // command (its own coordinator, as another process has) adds a to-do.
        clock.between = [
            { try server.crash() },
            {
                try server.restart()
                try other.run("add", "Call the bank", "--due", "+3m", "--store", store)
            },
        ]
        let printed = WatchHistoryTests.Printed()
        let home = other.directory.path
        let environment = ToDoEnvironment(
            clock: clock, timeZone: TimeZone(identifier: "UTC")!,
            variables: ["XDG_DATA_HOME": home, "HOME": home],
            isTerminal: false, write: { line in printed.append(line) })
        try ToDoEnvironment.$current.withValue(environment) {
            var command = try ToDoCommand.parseAsRoot(["watch", "--ticks", "3", "--store", store])
            try command.run()
        }
        #expect(clock.failures.isEmpty, "\(clock.failures)")
        let lines = printed.lines
        let watching = "Watching 127.0.0.1:\(server.port)/postgres (schema todo) (version 2: each to-do alerts once)."
        #expect(lines.first == watching + " Ctrl-C stops.")
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        #expect(lines[1] == "[2009-06-01 09:00] Due in 4 minutes: #1 Pay rent (at 2009-06-01 09:04)")
        #expect(lines[2].hasPrefix("Can't reach the store this minute ("), "\(lines[2])")
        #expect(lines[2].hasSuffix("); trying again at the next check."), "\(lines[2])")
        #expect(!lines[2].contains(server.password ?? "?"))
        #expect(lines[3] == "[2009-06-01 09:02] Due in 1 minute: #2 Call the bank (at 2009-06-01 09:03)")
    }
}
