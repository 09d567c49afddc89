/// The stacked drawing of an entity-relationship diagram, for a column too narrow for the
/// boxes side by side: one box under another at full size, each link a line that leaves its
/// upper box on the right, runs down a lane of its own beside the boxes and enters its lower
/// box, with its label in the gap above the lower box, so no line crosses a box or a label.
extension ERDiagramSVG {
    /// The order of the stack: the most linked box first, then the boxes it links to, so a
    /// parent sits above its sub-entities; boxes without links keep their order, at the end.
    static func stackOrder(entities: [Entity], links: [Link]) -> [Entity] {
        let names = Set(entities.map(\.name))
        let usable = links.filter { names.contains($0.from) && names.contains($0.to) }
        func degree(_ e: Entity) -> Int { usable.filter { $0.from == e.name || $0.to == e.name }.count }
        var order: [Entity] = []
        var placed: Set<String> = []
        while order.count < entities.count {
            // Start (again) from the most linked box not yet placed; ties keep the source order.
            guard let start = entities.filter({ !placed.contains($0.name) }).max(by: { degree($0) < degree($1) }) else {
                break
            }
            var queue = [start]
            placed.insert(start.name)
            while !queue.isEmpty {
                let e = queue.removeFirst()
                order.append(e)
                for link in usable where link.from == e.name || link.to == e.name {
                    let other = link.from == e.name ? link.to : link.from
                    if !placed.contains(other), let next = entities.first(where: { $0.name == other }) {
                        placed.insert(other)
                        queue.append(next)
                    }
                }
            }
        }
        return order
    }

    /// The stacked drawing (class `er-stacked`, hidden until a narrow column shows it).
    static func stackedSVG(entities: [Entity], links: [Link]) -> String {
        let order = stackOrder(entities: entities, links: links)
        let index = Dictionary(order.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Each drawable link by the stack positions of its upper and lower box.
        let spans: [(link: Link, upper: Int, lower: Int)] = links.compactMap { link in
            guard let a = index[link.from], let b = index[link.to], a != b else { return nil }
            return (link, min(a, b), max(a, b))
        }
        // Shorter spans take the lanes nearer the boxes, so links from one box nest instead of crossing.
        let lanes = spans.indices.sorted {
            (spans[$0].lower - spans[$0].upper, $0) < (spans[$1].lower - spans[$1].upper, $1)
        }
        var lane = [Int](repeating: 0, count: spans.count)
        for (n, i) in lanes.enumerated() { lane[i] = n }
        let labelsAbove = (0..<order.count).map { box in spans.indices.filter { spans[$0].lower == box } }
        let x = 20
        let labelStep = 16
        var tops: [Int] = []
        var y = 20
        for (i, e) in order.enumerated() {
            if i > 0 { y += 24 + labelStep * labelsAbove[i].count }
            tops.append(y)
            y += boxHeight(e)
        }
        let height = y + 20
        let laneX = { (n: Int) in x + boxWidth + 14 * (n + 1) }
        let longestLabel = spans.map { labelText($0.link).count }.max() ?? 0
        let width = max(laneX(spans.count) + 20, x + 4 + longestLabel * 7 + 20)
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"er er-stacked\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" role=\"img\" aria-label=\"Entity-relationship diagram\">"
        let marker = "inherits-" + fingerprint(order.map(\.name).joined(separator: ",")) + "-stacked"
        if spans.contains(where: { $0.link.label == "inherits" }) { out += arrowhead(id: marker) }
        for (i, span) in spans.enumerated() {
            let from = tops[span.upper] + headHeight / 2
            let to = tops[span.lower] + headHeight / 2
            // The parent is the upper box (stackOrder): its end of the line gets the arrowhead.
            let arrow =
                span.link.label == "inherits" && index[span.link.from] == span.upper
                ? " marker-start=\"url(#\(marker))\"" : ""
            out +=
                "<path d=\"M\(x + boxWidth) \(from)H\(laneX(lane[i]))V\(to)H\(x + boxWidth)\" class=\"link\" fill=\"none\"\(dash(span.link))\(arrow)/>"
        }
        for (box, labels) in labelsAbove.enumerated() {
            for (n, i) in labels.enumerated() {
                let baseline = tops[box] - 8 - labelStep * (labels.count - 1 - n)
                out +=
                    "<text x=\"\(x + 4)\" y=\"\(baseline)\" class=\"label\">\(HTML.escape(labelText(spans[i].link)))</text>"
            }
        }
        for (i, e) in order.enumerated() { out += box(e, x: x, y: tops[i], height: boxHeight(e)) }
        return out + "</svg>"
    }
}
