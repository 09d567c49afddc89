import Foundation

/// Draws the book's Mermaid `erDiagram` blocks as SVG, so the rendered book shows diagrams
/// offline without Mermaid's JavaScript. It reads only the subset `ERDiagram` writes.
enum ERDiagramSVG {
    struct Entity { var name: String; var lines: [String] = [] }
    struct Link { var from: String; var to: String; var label: String; var leftMany: Bool; var rightMany: Bool }

    static let boxWidth = 230, lineHeight = 18, headHeight = 26

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
                current?.lines.append(text)
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

    /// The diagram as the book's figure: the boxes side by side, and, for a diagram of two or
    /// more boxes, the same boxes stacked in one column. The stylesheet shows the stacked
    /// drawing in a column narrower than `fit` (85% of the side-by-side drawing's width, where
    /// its 12 px text would fall under 10 px), so a phone or the 820 px layout shows a diagram
    /// at full size instead of shrunk unreadable or scrolled half out of sight.
    static func figure(_ source: String) -> String {
        let (entities, links) = parse(source)
        let wide = svg(entities: entities, links: links)
        guard entities.count > 1 else { return "<figure class=\"diagram\">\(wide.svg)</figure>" }
        let fit = fitWidth(wide.width)
        return "<figure class=\"diagram fit-\(fit)\">\(wide.svg)\(stackedSVG(entities: entities, links: links))</figure>"
    }

    /// The column width under which a side-by-side drawing `width` wide gives way to the
    /// stacked one, rounded up to 20 px so the stylesheet needs few rules.
    static func fitWidth(_ width: Int) -> Int {
        (width * 85 / 100 + 19) / 20 * 20
    }

    /// The stylesheet rules that swap each figure's drawings, one per `fit` the book uses
    /// (a container query cannot read the width from the figure itself).
    static func containerRules(fits: Set<Int>) -> String {
        fits.sorted().map { fit in
            "@container (max-width: \(fit - 1).98px) { figure.fit-\(fit) > svg.er-wide { display: none; } figure.fit-\(fit) > svg.er-stacked { display: block; } }"
        }.joined(separator: "\n") + (fits.isEmpty ? "" : "\n")
    }

    /// The side-by-side drawing, three boxes a row, and its width.
    static func svg(entities: [Entity], links: [Link]) -> (svg: String, width: Int) {
        let columns = min(3, max(1, entities.count))
        let gapY = 60
        // Wide enough for the longest link label (11px text, about 7px a character) to sit
        // between two boxes instead of under them.
        let longestLabel = links.map { labelText($0).count }.max() ?? 0
        let gapX = max(90, longestLabel * 7 + 20)
        let heights = entities.map(boxHeight)
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
        // It shrinks with a narrow column, but not below 70% (9 px text): where the stacked
        // drawing cannot stand in (no container queries), the figure scrolls sideways rather
        // than show text too small to read.
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er er-wide\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" style=\"min-width: \(width * 7 / 10)px\" role=\"img\" aria-label=\"Entity-relationship diagram\">"
        for link in links {
            guard let a = positions[link.from], let b = positions[link.to] else { continue }
            let (x1, y1) = (a.x + boxWidth / 2, a.y + a.h / 2), (x2, y2) = (b.x + boxWidth / 2, b.y + b.h / 2)
            out += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" class=\"link\"\(dash(link))/>"
            out += "<text x=\"\((x1 + x2) / 2)\" y=\"\((y1 + y2) / 2 - 6)\" class=\"label\" text-anchor=\"middle\">\(HTML.escape(labelText(link)))</text>"
        }
        for e in entities {
            guard let p = positions[e.name] else { continue }
            out += box(e, x: p.x, y: p.y, height: p.h)
        }
        return (out + "</svg>", width)
    }

    /// A box's height: its title bar and one line per attribute (at least one line's room).
    static func boxHeight(_ e: Entity) -> Int {
        headHeight + 4 + max(1, e.lines.count) * lineHeight + 8
    }

    /// The label a link carries: its names and, for a relationship, its ends' cardinality.
    static func labelText(_ link: Link) -> String {
        link.label == "inherits" ? link.label : link.label + " (\(link.leftMany ? "many" : "one") to \(link.rightMany ? "many" : "one"))"
    }

    /// Inheritance is dashed, a relationship solid.
    static func dash(_ link: Link) -> String {
        link.label == "inherits" ? " stroke-dasharray=\"6 4\"" : ""
    }

    /// One entity's box: the title bar (rounded at the top only, so no notch shows where it
    /// meets the box) and its attributes.
    static func box(_ e: Entity, x: Int, y: Int, height: Int) -> String {
        let r = 6, right = x + boxWidth, bottom = y + headHeight
        var out = "<g><rect x=\"\(x)\" y=\"\(y)\" width=\"\(boxWidth)\" height=\"\(height)\" rx=\"\(r)\" class=\"box\"/>"
        out += "<path d=\"M\(x) \(bottom)V\(y + r)Q\(x) \(y) \(x + r) \(y)H\(right - r)Q\(right) \(y) \(right) \(y + r)V\(bottom)Z\" class=\"head\"/>"
        out += "<text x=\"\(x + boxWidth / 2)\" y=\"\(y + 18)\" class=\"title\" text-anchor=\"middle\">\(HTML.escape(e.name))</text>"
        for (i, line) in e.lines.enumerated() {
            out += "<text x=\"\(x + 10)\" y=\"\(y + 44 + i * lineHeight)\" class=\"attr\">\(HTML.escape(line))</text>"
        }
        return out + "</g>"
    }
}
