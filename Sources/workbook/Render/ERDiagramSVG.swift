import Foundation

/// Draws the book's Mermaid `erDiagram` blocks as SVG, so the rendered book shows diagrams
/// offline without Mermaid's JavaScript. It reads only the subset `ERDiagram` writes.
enum ERDiagramSVG {
    struct Entity {
        var name: String
        var lines: [String] = []
    }
    struct Link {
        var from: String
        var to: String
        var label: String
        var leftMany: Bool
        var rightMany: Bool
    }

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
                if parts.count == 3 {
                    text += " (" + parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) + ")"
                }
                if parts.first == "abstract" { text = "«abstract»" }
                current?.lines.append(text)
            } else {
                // A --B : "label"
                let halves = line.components(separatedBy: " : ")
                let ends = halves[0].split(separator: " ").map(String.init)
                guard ends.count == 3 else { continue }
                let label = halves.count > 1 ? halves[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                links.append(
                    Link(
                        from: ends[0], to: ends[2], label: label,
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
        return
            "<figure class=\"diagram fit-\(fit)\">\(wide.svg)\(stackedSVG(entities: entities, links: links))</figure>"
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

    /// The rows of the side-by-side drawing, as indices into `entities`: three boxes a row in
    /// their order; with inheritance, a row per generation, each sub-entity under its parent's
    /// place (a fourth box is not pushed onto a row of its own at the side).
    static func rows(entities: [Entity], links: [Link]) -> [[Int]] {
        let index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var parent: [Int: Int] = [:]
        for link in links where link.label == "inherits" {
            if let p = index[link.from], let c = index[link.to], p != c { parent[c] = p }
        }
        guard !parent.isEmpty else {
            return stride(from: 0, to: entities.count, by: 3).map { Array($0..<min($0 + 3, entities.count)) }
        }
        func depth(_ i: Int) -> Int {
            var d = 0
            var current = i
            var seen: Set<Int> = [i]
            while let p = parent[current], seen.insert(p).inserted {
                d += 1
                current = p
            }
            return d
        }
        var rows: [[Int]] = []
        for i in entities.indices {
            let d = depth(i)
            while rows.count <= d { rows.append([]) }
            rows[d].append(i)
        }
        // Sub-entities in the order of their parents above them.
        for r in rows.indices.dropFirst() {
            let above = rows[r - 1]
            rows[r].sort {
                (above.firstIndex(of: parent[$0] ?? -1) ?? .max, $0) < (
                    above.firstIndex(of: parent[$1] ?? -1) ?? .max, $1
                )
            }
        }
        return rows
    }

    /// The side-by-side drawing and its width: rows of boxes (``rows(entities:links:)``),
    /// each row centred. A relationship between boxes of one row is a level line between their
    /// facing sides; inheritance runs from the top of each sub-entity up, across and into the
    /// bottom of its parent, which a hollow arrowhead marks, as UML draws generalisation.
    static func svg(entities: [Entity], links: [Link]) -> (svg: String, width: Int) {
        let rows = rows(entities: entities, links: links)
        let columns = max(1, rows.map(\.count).max() ?? 1)
        let gapY = 60
        // Wide enough for the longest link label (11px text, about 7px a character) to sit
        // between two boxes instead of under them.
        let longestLabel = links.filter { $0.label != "inherits" }.map { labelText($0).count }.max() ?? 0
        let gapX = max(90, longestLabel * 7 + 20)
        let heights = entities.map(boxHeight)
        let rowHeights = rows.map { row in row.map { heights[$0] }.max() ?? 0 }
        let rowWidth = { (count: Int) in count * boxWidth + max(0, count - 1) * gapX }
        var positions: [String: (x: Int, y: Int, h: Int)] = [:]
        for (r, row) in rows.enumerated() {
            let y = 20 + rowHeights[..<r].reduce(0, +) + r * gapY
            let left = 20 + (rowWidth(columns) - rowWidth(row.count)) / 2
            for (col, i) in row.enumerated() {
                positions[entities[i].name] = (left + col * (boxWidth + gapX), y, heights[i])
            }
        }
        let width = 40 + rowWidth(columns)
        let height = 40 + rowHeights.reduce(0, +) + max(0, rows.count - 1) * gapY
        let marker = "inherits-" + fingerprint(entities.map(\.name).joined(separator: ","))
        // It shrinks with a narrow column, but not below 70% (9 px text): where the stacked
        // drawing cannot stand in (no container queries), the figure scrolls sideways rather
        // than show text too small to read.
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er er-wide\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" style=\"min-width: \(width * 7 / 10)px\" role=\"img\" aria-label=\"Entity-relationship diagram\">"
        if links.contains(where: { $0.label == "inherits" }) { out += arrowhead(id: marker) }
        for link in links {
            guard let a = positions[link.from], let b = positions[link.to] else { continue }
            if link.label == "inherits", b.y > a.y {
                // From the sub-entity's top, up to the middle of the gap, across, into the parent.
                let (cx, top) = (b.x + boxWidth / 2, b.y)
                let (px, bottom) = (a.x + boxWidth / 2, a.y + a.h)
                let bus = top - gapY / 2
                out +=
                    "<path d=\"M\(cx) \(top)V\(bus)H\(px)V\(bottom)\" class=\"link\" fill=\"none\" marker-end=\"url(#\(marker))\"\(dash(link))/>"
                out += "<text x=\"\(cx + 6)\" y=\"\(top - 8)\" class=\"label\">\(HTML.escape(labelText(link)))</text>"
            } else if a.y == b.y {
                // One row: level, between the facing sides, at the middle of the shorter box.
                let (left, right) = a.x < b.x ? (a, b) : (b, a)
                let y = a.y + min(a.h, b.h) / 2
                let (x1, x2) = (left.x + boxWidth, right.x)
                out += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(x2)\" y2=\"\(y)\" class=\"link\"\(dash(link))/>"
                out +=
                    "<text x=\"\((x1 + x2) / 2)\" y=\"\(y - 6)\" class=\"label\" text-anchor=\"middle\">\(HTML.escape(labelText(link)))</text>"
            } else {
                let (x1, y1) = (a.x + boxWidth / 2, a.y + a.h / 2)
                let (x2, y2) = (b.x + boxWidth / 2, b.y + b.h / 2)
                out += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" class=\"link\"\(dash(link))/>"
                out +=
                    "<text x=\"\((x1 + x2) / 2)\" y=\"\((y1 + y2) / 2 - 6)\" class=\"label\" text-anchor=\"middle\">\(HTML.escape(labelText(link)))</text>"
            }
        }
        for e in entities {
            guard let p = positions[e.name] else { continue }
            out += box(e, x: p.x, y: p.y, height: p.h)
        }
        return (out + "</svg>", width)
    }

    /// The hollow arrowhead that marks a parent entity, as a marker named `id`.
    static func arrowhead(id: String) -> String {
        "<defs><marker id=\"\(id)\" viewBox=\"0 0 12 12\" refX=\"12\" refY=\"6\" markerWidth=\"12\" markerHeight=\"12\" "
            + "markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path d=\"M0 0L12 6L0 12Z\" class=\"arrow\"/></marker></defs>"
    }

    /// A short, stable name for a diagram's markers (FNV-1a of `text`): a page with several
    /// diagrams needs an id of its own for each, the same on every render.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(hash, radix: 16)
    }

    /// A box's height: its title bar and one line per attribute (at least one line's room).
    static func boxHeight(_ e: Entity) -> Int {
        headHeight + 4 + max(1, e.lines.count) * lineHeight + 8
    }

    /// The label a link carries: its names and, for a relationship, its ends' cardinality.
    static func labelText(_ link: Link) -> String {
        link.label == "inherits"
            ? link.label : link.label + " (\(link.leftMany ? "many" : "one") to \(link.rightMany ? "many" : "one"))"
    }

    /// Inheritance is dashed, a relationship solid.
    static func dash(_ link: Link) -> String {
        link.label == "inherits" ? " stroke-dasharray=\"6 4\"" : ""
    }

    /// One entity's box: the title bar (rounded at the top only, so no notch shows where it
    /// meets the box) and its attributes.
    static func box(_ e: Entity, x: Int, y: Int, height: Int) -> String {
        let r = 6
        let right = x + boxWidth
        let bottom = y + headHeight
        var out =
            "<g><rect x=\"\(x)\" y=\"\(y)\" width=\"\(boxWidth)\" height=\"\(height)\" rx=\"\(r)\" class=\"box\"/>"
        out +=
            "<path d=\"M\(x) \(bottom)V\(y + r)Q\(x) \(y) \(x + r) \(y)H\(right - r)Q\(right) \(y) \(right) \(y + r)V\(bottom)Z\" class=\"head\"/>"
        out +=
            "<text x=\"\(x + boxWidth / 2)\" y=\"\(y + 18)\" class=\"title\" text-anchor=\"middle\">\(HTML.escape(e.name))</text>"
        for (i, line) in e.lines.enumerated() {
            out += "<text x=\"\(x + 10)\" y=\"\(y + 44 + i * lineHeight)\" class=\"attr\">\(HTML.escape(line))</text>"
        }
        return out + "</g>"
    }
}
