import CoreData

// ANCHOR: clock
/// The chapter's "now": 09:00 UTC on 1 June 2009, the summer Zarra's article appeared. The
/// timers run on it instead of the real clock, so the book prints the same times on every run.
let nineOClock = Date(timeIntervalSinceReferenceDate: 265_539_600)

/// A time of day as the timer prints it, in UTC: `09:04`.
func timeOfDay(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "HH:mm"
    return formatter.string(from: date)
}
// ANCHOR_END: clock
