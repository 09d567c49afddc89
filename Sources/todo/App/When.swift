import Foundation

/// Reads the times a user types: an ISO date-time (`2026-11-22T14:30`, `2026-11-22 14:30`,
/// with seconds or a zone if wanted), a date (`2026-11-22`, its midnight), a time today
/// (`14:30`), or an offset from now (`+15m`, `+2h`, `+1d`, `+1h30m`; `-1d` for a day ago). Times
/// without a zone are in the user's time zone.
public enum When {
    /// The date `text` names, read at `now` in `timeZone`.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("+"), let offset = offset(trimmed.dropFirst()) {
            return now.addingTimeInterval(offset)
        }
        if trimmed.hasPrefix("-"), let offset = offset(trimmed.dropFirst()) {
            return now.addingTimeInterval(-offset)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if let (hour, minute) = timeOfDay(trimmed) {
            var day = calendar.dateComponents([.year, .month, .day], from: now)
            day.hour = hour
            day.minute = minute
            if let date = calendar.date(from: day) { return date }
        }
        if let date = isoDate(trimmed, timeZone: timeZone) { return date }
        throw ToDoError(
            """
            Can't read the time "\(text)". Write an ISO date-time (2026-11-22T14:30), a time \
            today (14:30), or an offset from now (+15m, +2h, +1d).
            """)
    }

    /// Seconds in `+1h30m`-style text (after the `+`): numbers each followed by d, h, m or s.
    static func offset(_ text: Substring) -> TimeInterval? {
        var total: TimeInterval = 0
        var digits = ""
        var sawUnit = false
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let value = Double(digits), digits.count <= 6 else { return nil }
            switch character {
            case "d": total += value * 86_400
            case "h": total += value * 3_600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            digits = ""
            sawUnit = true
        }
        return sawUnit && digits.isEmpty ? total : nil
    }

    /// The hour and minute of `HH:MM`.
    static func timeOfDay(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    /// An ISO 8601 date or date-time, with `T` or a space, with or without seconds and zone.
    static func isoDate(_ text: String, timeZone: TimeZone) -> Date? {
        let normalized = text.replacingOccurrences(of: " ", with: "T")
        let formats = [
            "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm:ss",
            "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd",
        ]
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = format
            formatter.isLenient = false
            if let date = formatter.date(from: normalized) { return date }
        }
        return nil
    }

    /// The warning for a due time that has already passed, nil for one still ahead. Such a
    /// to-do is kept, since recording something already overdue is legitimate, but the user
    /// hears that `todo watch` will not alert it: a time of day that has passed today
    /// ("14:30" typed at 15:00) is most often meant for tomorrow.
    static func pastWarning(_ due: Date, number: Int64, environment: ToDoEnvironment) -> String? {
        guard due < environment.clock.now else { return nil }
        return
            "Warning: its due time, \(format(due, timeZone: environment.timeZone)), has already passed, so `todo watch` will not alert it. To move it: todo edit \(number) --due WHEN (+1d: a day from now)."
    }

    /// How the program prints a date: `2026-11-22 14:30` in the user's time zone.
    public static func format(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }
}
