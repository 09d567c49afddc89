/// AND and OR chains: an AND directly inside an AND (an OR inside an OR) means the same as
/// its subpredicates spliced into the outer one, so the walks over compound predicates treat
/// such a chain as one flat list of terms, gathered with an explicit stack.
///
/// Folding predicates one at a time (`p = .or([p, term])` in a loop) builds a chain as deep as
/// it is long; a chain of 100,000 terms is evaluated, printed, substituted and translated to SQL
/// without recursion per link.
extension CompoundPredicate {
    /// The terms of the chain this compound begins, in order, without recursion: the
    /// subpredicates, with each AND inside an AND (OR inside an OR) replaced by its own terms.
    /// A NOT is no chain: its terms are its subpredicates.
    var chainTerms: ChainTerms { ChainTerms(type: compoundPredicateType, subpredicates: subpredicates) }

    /// Whether `predicate` is a link of this compound's chain: a compound of the same AND or OR type.
    func continuesChain(_ predicate: Predicate) -> CompoundPredicate? {
        guard compoundPredicateType != .not, case .compound(let inner) = predicate,
            inner.compoundPredicateType == compoundPredicateType
        else { return nil }
        return inner
    }

    /// The same chain, with the same links (so it prints the same parentheses), each term
    /// replaced by `transform(term)`; rebuilt with an explicit stack.
    func mapChainTerms(_ transform: (Predicate) throws -> Predicate) rethrows -> CompoundPredicate {
        let type = compoundPredicateType
        guard type != .not else { return CompoundPredicate(unchecked: type, try subpredicates.map(transform)) }
        // One frame per link being rebuilt: its subpredicates still to go, and those done.
        var frames: [(rest: ArraySlice<Predicate>, done: [Predicate])] = [(subpredicates[...], [])]
        while var frame = frames.popLast() {
            if let next = frame.rest.popFirst() {
                if let link = continuesChain(next) {
                    frames.append(frame)
                    frames.append((link.subpredicates[...], []))
                } else {
                    frame.done.append(try transform(next))
                    frames.append(frame)
                }
                continue
            }
            let rebuilt = CompoundPredicate(unchecked: type, frame.done)
            guard !frames.isEmpty else { return rebuilt }
            frames[frames.count - 1].done.append(.compound(rebuilt))
        }
        // Not reached: the loop returns when it finishes the root's frame.
        return self
    }

    /// The terms of an AND or OR chain, visited lazily (evaluation stops at the first term
    /// that decides).
    struct ChainTerms: Sequence {
        let type: LogicalType
        let subpredicates: [Predicate]

        func makeIterator() -> Iterator { Iterator(type: type, current: subpredicates[...]) }

        /// Walks the chain depth first with a stack of the links' remaining subpredicates.
        struct Iterator: IteratorProtocol {
            let type: LogicalType
            var current: ArraySlice<Predicate>
            /// The unvisited rest of each enclosing link; a link with nothing left is not kept,
            /// so a right-deep chain needs no stack at all.
            var enclosing: [ArraySlice<Predicate>] = []

            mutating func next() -> Predicate? {
                while true {
                    guard let predicate = current.popFirst() else {
                        guard let outer = enclosing.popLast() else { return nil }
                        current = outer
                        continue
                    }
                    guard type != .not, case .compound(let inner) = predicate, inner.compoundPredicateType == type
                    else {
                        return predicate
                    }
                    if !current.isEmpty { enclosing.append(current) }
                    current = inner.subpredicates[...]
                }
            }
        }
    }
}
