/// Draws the book's Mermaid `erDiagram` blocks as SVG, so the rendered book shows diagrams
/// offline without Mermaid's JavaScript. It reads only the subset `ERDiagram` writes.
enum ERDiagramSVG {
    struct Entity { var name: String; var lines: [String] = [] }
    struct Link { var from: String; var to: String; var label: String; var leftMany: Bool; var rightMany: Bool }

    static func parse(_ source: String) -> (entities: [Entity], links: [Link]) {
        var entities: [Entity] = []
        var links: [Link] = []
        var current: Entity?
        for raw in source.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line == "erDiagram" || line.isEmpty { continue }
            if line.hasSuffix("{") {
                current = Entity(name: String(line.dropLast().trimmingCharacters(in: .whitespaces)))
            } else if line == "}" {
                if let e = current { entities.append(e) }
                current = nil
            } else if current != nil {
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                var text = parts.count >= 2 ? "\(parts[1]): \(parts[0])" : line
                if parts.count == 3 { text += " (" + parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) + ")" }
                if parts.first == "abstract" { text = "«abstract»" }
                current!.lines.append(text)
            } else {
                // A --B : "label"
                let halves = line.components(separatedBy: " : ")
                let ends = halves[0].split(separator: " ").map(String.init)
                guard ends.count == 3 else { continue }
                let label = halves.count > 1 ? halves[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                links.append(Link(from: ends[0], to: ends[2], label: label,
                                  leftMany: ends[1].hasPrefix("}"), rightMany: ends[1].hasSuffix("{")))
            }
        }
        return (entities, links)
    }

    static func svg(_ source: String) -> String {
        let (entities, links) = parse(source)
        let columns = min(3, max(1, entities.count))
        let boxWidth = 230, lineHeight = 18, gapY = 60
        // Wide enough for the longest link label (11px text, about 7px a character) to sit
        // between two boxes instead of under them.
        let longestLabel = links.map { $0.label.count + ($0.label == "inherits" ? 0 : " (many to many)".count) }.max() ?? 0
        let gapX = max(90, longestLabel * 7 + 20)
        let heights = entities.map { 30 + max(1, $0.lines.count) * lineHeight + 8 }
        let rows = (entities.count + columns - 1) / columns
        var rowHeights = [Int](repeating: 0, count: rows)
        for (i, h) in heights.enumerated() { rowHeights[i / columns] = max(rowHeights[i / columns], h) }
        var positions: [String: (x: Int, y: Int, h: Int)] = [:]
        for (i, e) in entities.enumerated() {
            let row = i / columns, col = i % columns
            let y = 20 + rowHeights[..<row].reduce(0, +) + row * gapY
            positions[e.name] = (20 + col * (boxWidth + gapX), y, heights[i])
        }
        let width = 40 + columns * boxWidth + (columns - 1) * gapX
        let height = 40 + rowHeights.reduce(0, +) + max(0, rows - 1) * gapY
        // It shrinks with a narrow column, but not below 70% (9 px text): a phone scrolls
        // the figure sideways rather than show text too small to read.
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" style=\"min-width: \(width * 7 / 10)px\" role=\"img\" aria-label=\"Entity-relationship diagram\">"
        for link in links {
            guard let a = positions[link.from], let b = positions[link.to] else { continue }
            let (x1, y1) = (a.x + boxWidth / 2, a.y + a.h / 2), (x2, y2) = (b.x + boxWidth / 2, b.y + b.h / 2)
            let dashed = link.label == "inherits" ? " stroke-dasharray=\"6 4\"" : ""
            out += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" class=\"link\"\(dashed)/>"
            let ends = link.label == "inherits" ? "" : " (\(link.leftMany ? "many" : "one") to \(link.rightMany ? "many" : "one"))"
            out += "<text x=\"\((x1 + x2) / 2)\" y=\"\((y1 + y2) / 2 - 6)\" class=\"label\" text-anchor=\"middle\">\(HTML.escape(link.label + ends))</text>"
        }
        for e in entities {
            let p = positions[e.name]!
            out += "<g><rect x=\"\(p.x)\" y=\"\(p.y)\" width=\"\(boxWidth)\" height=\"\(p.h)\" rx=\"6\" class=\"box\"/>"
            out += "<rect x=\"\(p.x)\" y=\"\(p.y)\" width=\"\(boxWidth)\" height=\"26\" rx=\"6\" class=\"head\"/>"
            out += "<text x=\"\(p.x + boxWidth / 2)\" y=\"\(p.y + 18)\" class=\"title\" text-anchor=\"middle\">\(HTML.escape(e.name))</text>"
            for (i, line) in e.lines.enumerated() {
                out += "<text x=\"\(p.x + 10)\" y=\"\(p.y + 44 + i * lineHeight)\" class=\"attr\">\(HTML.escape(line))</text>"
            }
            out += "</g>"
        }
        return out + "</svg>"
    }
}

import Foundation
