import Foundation
import Testing

@testable import ToDoApp

/// The article's minute timer: the to-dos due in the next five minutes are alerted.
@Suite struct WatchTests {
    // Version 1 alerts an item at every tick while it is due: the article's complaint.
    @Test func versionOneAlertsEveryMinute() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--due", "+4m30s", "--model-version", "1")
        try todo.run("add", "Later", "--due", "+1h", "--model-version", "1")
        let lines = try todo.run("watch", "--ticks", "7", "--model-version", "1")
        #expect(lines.first == "Watching ToDo.xml (version 1: alerts repeat every minute). Ctrl-C stops.")
        #expect(
            Array(lines.dropFirst()) == [
                "[2009-06-01 09:00] Due in 5 minutes: #1 Pay rent (at 2009-06-01 09:04)",
                "[2009-06-01 09:01] Due in 4 minutes: #1 Pay rent (at 2009-06-01 09:04)",
                "[2009-06-01 09:02] Due in 3 minutes: #1 Pay rent (at 2009-06-01 09:04)",
                "[2009-06-01 09:03] Due in 2 minutes: #1 Pay rent (at 2009-06-01 09:04)",
                "[2009-06-01 09:04] Due in 1 minute: #1 Pay rent (at 2009-06-01 09:04)",
            ])
        #expect(todo.clock.now == ToDoHarness.start.addingTimeInterval(6 * 60))
    }

    // Version 2 records lastAlertDate, so an item alerts once, and skips doNotAlert items.
    @Test func versionTwoAlertsOnce() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--due", "+4m30s")
        try todo.run("add", "Ask for a raise", "--due", "+2m")
        try todo.run("edit", "2", "--do-not-alert", "true")
        let lines = try todo.run("watch", "--ticks", "7")
        #expect(Array(lines.dropFirst()) == ["[2009-06-01 09:00] Due in 5 minutes: #1 Pay rent (at 2009-06-01 09:04)"])
        #expect(try todo.run("show", "1").contains("  last alert:     2009-06-01 09:00"))
        // The alert survives a restart: the next watch is silent.
        #expect(try todo.run("watch", "--ticks", "1").count == 1)
        // Asking for alerts again forgets the last one.
        try todo.run("edit", "1", "--do-not-alert", "false", "--due", "+3m")
        #expect(try todo.run("watch", "--ticks", "1").count == 2)
    }

    @Test func completedItemsDoNotAlert() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--due", "+1m")
        try todo.run("done", "1")
        #expect(try todo.run("watch", "--ticks", "2").count == 1)
    }

    @Test func theBellRingsOnlyInATerminal() throws {
        let todo = try ToDoHarness()
        try todo.run("add", "Pay rent", "--due", "+1m", "--model-version", "1")
        #expect(
            try todo.run("watch", "--ticks", "1", "--model-version", "1").last
                == "[2009-06-01 09:00] Due in 1 minute: #1 Pay rent (at 2009-06-01 09:01)")
        todo.isTerminal = true
        todo.clock.advance(by: 60)
        #expect(
            try todo.run("watch", "--ticks", "1", "--model-version", "1").last
                == "\u{7}[2009-06-01 09:01] Due now: #1 Pay rent (at 2009-06-01 09:01)")
    }
}
