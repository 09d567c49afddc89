/// A unified diff of two texts, line by line (longest common subsequence), with three lines
/// of context, as `diff -u` prints it.
enum UnifiedDiff {
    static func make(old: String, new: String, name: String) -> String {
        let a = old.components(separatedBy: "\n")
        let b = new.components(separatedBy: "\n")
        // LCS table from the ends; pages are a few hundred lines, so quadratic is fine.
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Edit {
            case same(String)
            case removed(String)
            case added(String)
        }
        var edits: [(edit: Edit, oldLine: Int, newLine: Int)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                edits.append((.same(a[i]), i, j))
                i += 1
                j += 1
            } else if j < b.count && (i == a.count || lcs[i][j + 1] >= lcs[i + 1][j]) {
                edits.append((.added(b[j]), i, j))
                j += 1
            } else {
                edits.append((.removed(a[i]), i, j))
                i += 1
            }
        }
        var out = ["--- \(name) (in the book)", "+++ \(name) (generated now)"]
        var k = 0
        while k < edits.count {
            guard case .same = edits[k].edit else {
                // A hunk: from 3 lines before this change to 3 lines after the last nearby one.
                let start = max(0, k - 3)
                var end = k
                var lastChange = k
                while end < edits.count {
                    if case .same = edits[end].edit { if end - lastChange > 6 { break } } else { lastChange = end }
                    end += 1
                }
                end = min(edits.count, lastChange + 4)
                let hunk = edits[start..<end]
                let oldCount = hunk.filter {
                    if case .added = $0.edit { return false }
                    return true
                }.count
                let newCount = hunk.filter {
                    if case .removed = $0.edit { return false }
                    return true
                }.count
                out.append("@@ -\(hunk.first!.oldLine + 1),\(oldCount) +\(hunk.first!.newLine + 1),\(newCount) @@")
                for e in hunk {
                    switch e.edit {
                    case .same(let s): out.append(" " + s)
                    case .removed(let s): out.append("-" + s)
                    case .added(let s): out.append("+" + s)
                    }
                }
                k = end
                continue
            }
            k += 1
        }
        return out.joined(separator: "\n")
    }
}
