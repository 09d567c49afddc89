import Foundation
import Testing

@testable import ToDoApp

/// The times a user types, read in the user's time zone.
@Suite struct WhenTests {
    static let now = ToDoHarness.start // 2009-06-01 09:00 UTC
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")! // UTC+2 in June

    @Test(arguments: [
        ("+15m", 900.0), ("+2h", 7_200), ("+1d", 86_400), ("+1h30m", 5_400), ("+90s", 90), ("+0m", 0),
        ("-5m", -300), ("-1d", -86_400),
    ])
    func offsetsFromNow(text: String, seconds: Double) throws {
        #expect(try When.parse(text, now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(seconds))
    }

    @Test func timesTodayAndISODatesAreInTheUsersZone() throws {
        #expect(try When.parse("14:30", now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(5.5 * 3_600))
        // 14:30 in Paris is 12:30 UTC.
        #expect(
            try When.parse("14:30", now: Self.now, timeZone: Self.paris) == Self.now.addingTimeInterval(3.5 * 3_600))
        #expect(
            try When.parse("2009-06-01T10:00", now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(3_600))
        #expect(
            try When.parse("2009-06-01 10:00", now: Self.now, timeZone: Self.paris)
                == Self.now.addingTimeInterval(-3_600))
        #expect(
            try When.parse("2009-06-01T10:00:30Z", now: Self.now, timeZone: Self.paris)
                == Self.now.addingTimeInterval(3_630))
        #expect(try When.parse("2009-06-01T10:00+01:00", now: Self.now, timeZone: Self.utc) == Self.now)
        #expect(
            try When.parse("2009-06-02", now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(15 * 3_600))
        #expect(When.format(Self.now, timeZone: Self.paris) == "2009-06-01 11:00")
    }

    // `--due -5m` was read as an unknown option -5m: the options that take a time read the next
    // word whatever it starts with, and a past offset is a time like any other.
    @Test func aPastOffsetIsAnOptionsValue() throws {
        let todo = try ToDoHarness()
        let added = try todo.run("add", "Call Bob", "--due", "-5m")
        #expect(added.contains { $0.contains("has already passed") }, "\(added)")
        let listed = try todo.run("list", "--due-before", "-1m")
        #expect(listed.contains { $0.contains("Call Bob") }, "\(listed)")
    }

    @Test(arguments: [
        "tomorrow", "", "+", "+5", "+5x", "-", "-5", "+m", "24:00", "9:5", "2009-13-01", "2009-06-01T25:00",
        "+99999999d",
    ])
    func unreadableTimesAreErrors(text: String) {
        #expect(throws: ToDoError.self) { try When.parse(text, now: Self.now, timeZone: Self.utc) }
    }
}
