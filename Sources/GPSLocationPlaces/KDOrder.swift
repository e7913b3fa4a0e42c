import LocateSupport

/// An implicit k-d tree over unit vectors: the rows of a range are ordered so that its middle
/// row splits the rest by one axis (x, y, z in turn with the depth), the rows before it lower
/// on that axis, the rows after it higher. The order is the whole tree: no pointers are kept,
/// and a nearest-place search visits a few dozen rows of tens of thousands.
enum KDOrder {
    /// `items` in the tree's order.
    static func arranged<Item>(_ items: [Item], vector: (Item) -> UnitVector) -> [Item] {
        var axes: [Double] = []
        axes.reserveCapacity(items.count * 3)
        for item in items {
            let point = vector(item)
            axes += [point.x, point.y, point.z]
        }
        var order = Array(items.indices)
        var pending = [(range: 0..<items.count, depth: 0)]
        while let (range, depth) = pending.popLast() {
            guard range.count > 1 else { continue }
            let middle = range.lowerBound + range.count / 2
            select(middle, in: range, of: &order) { axes[$0 * 3 + depth % 3] }
            pending.append((range.lowerBound..<middle, depth + 1))
            pending.append(((middle + 1)..<range.upperBound, depth + 1))
        }
        return order.map { items[$0] }
    }

    /// Puts in `order[target]` the element that belongs there when `range` is sorted by `key`,
    /// with no larger one before it and no smaller one after it (quickselect).
    private static func select(_ target: Int, in range: Range<Int>, of order: inout [Int], key: (Int) -> Double) {
        var (low, high) = (range.lowerBound, range.upperBound - 1)
        while low < high {
            let pivot = key(order[low + (high - low) / 2])
            var (left, right) = (low, high)
            while left <= right {
                while key(order[left]) < pivot { left += 1 }
                while key(order[right]) > pivot { right -= 1 }
                if left <= right {
                    order.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if target <= right {
                high = right
            } else if target >= left {
                low = left
            } else {
                return
            }
        }
    }

    /// The row nearest to `point` among `vectors` (three per row, in the tree's order); `nil`
    /// when there are none.
    static func nearest(to point: UnitVector, in vectors: [Float]) -> Int? {
        nearest(to: point, in: vectors, labels: [], label: 0)
    }

    /// The row nearest to `point` among those whose entry in `labels` is `label` (all rows when
    /// `labels` is empty); `nil` when there are none.
    static func nearest(to point: UnitVector, in vectors: [Float], labels: [UInt16], label: UInt16) -> Int? {
        var search = Search(vectors: vectors, target: point, limit: .infinity, labels: labels, label: label)
        search.nearest(0, vectors.count / 3, axis: 0)
        return search.found.first
    }

    /// The rows whose own reach takes in `point`: those whose squared chord to it is at most
    /// their `reaches` entry. `subtreeReaches` (`subtreeMaxima(reaches)`) lets the search skip
    /// every part of the tree that reaches nowhere near.
    static func rows(reaching point: UnitVector, in vectors: [Float], reaches: [Float], subtreeReaches: [Float]) -> [Int] {
        var search = Search(vectors: vectors, target: point, limit: 0, labels: [], label: 0)
        search.reaching(0, vectors.count / 3, axis: 0, reaches: reaches, subtreeReaches: subtreeReaches)
        return search.found
    }

    /// For each row, the largest of `values` in the subtree it splits (itself and the rows
    /// before and after it in its range).
    static func subtreeMaxima(_ values: [Float]) -> [Float] {
        var maxima = values
        func fill(_ lower: Int, _ upper: Int) -> Float {
            guard lower < upper else { return 0 }
            let middle = lower + (upper - lower) / 2
            maxima[middle] = max(values[middle], fill(lower, middle), fill(middle + 1, upper))
            return maxima[middle]
        }
        _ = fill(0, values.count)
        return maxima
    }

    /// One search: the recursion over the implicit tree, with no closures (which would box
    /// what they capture at every call).
    private struct Search {
        let vectors: [Float]
        let target: UnitVector
        /// For `nearest`, the squared chord of the best row so far (`reaching` uses each row's reach).
        var limit: Double
        /// For `nearest`, only rows whose label is `label` count (all when `labels` is empty).
        let labels: [UInt16]
        let label: UInt16
        var found: [Int] = []

        @inline(__always)
        private func chordSquared(_ row: Int) -> Double {
            let dx = target.x - Double(vectors[row * 3])
            let dy = target.y - Double(vectors[row * 3 + 1])
            let dz = target.z - Double(vectors[row * 3 + 2])
            return dx * dx + dy * dy + dz * dz
        }

        /// How far `target` is past the splitting row's plane on `axis` (negative: below it).
        private func offset(_ row: Int, axis: Int) -> Double {
            let component = axis == 0 ? target.x : axis == 1 ? target.y : target.z
            return component - Double(vectors[row * 3 + axis])
        }

        mutating func nearest(_ lower: Int, _ upper: Int, axis: Int) {
            guard lower < upper else { return }
            let middle = lower + (upper - lower) / 2
            let squared = chordSquared(middle)
            if squared < limit, labels.isEmpty || labels[middle] == label {
                limit = squared
                found = [middle]
            }
            let next = axis == 2 ? 0 : axis + 1
            let offset = offset(middle, axis: axis)
            if offset < 0 {
                nearest(lower, middle, axis: next)
                if offset * offset < limit { nearest(middle + 1, upper, axis: next) }
            } else {
                nearest(middle + 1, upper, axis: next)
                if offset * offset < limit { nearest(lower, middle, axis: next) }
            }
        }

        /// Rows on the far side of a splitting plane are at least the plane's distance away, so
        /// a side whose rows all reach less than that is skipped.
        mutating func reaching(_ lower: Int, _ upper: Int, axis: Int, reaches: [Float], subtreeReaches: [Float]) {
            guard lower < upper else { return }
            let middle = lower + (upper - lower) / 2
            let squared = chordSquared(middle)
            if squared <= Double(reaches[middle]) { found.append(middle) }
            let next = axis == 2 ? 0 : axis + 1
            let offset = offset(middle, axis: axis)
            if middle > lower, offset <= 0 || offset * offset <= Double(subtreeReaches[lower + (middle - lower) / 2]) {
                reaching(lower, middle, axis: next, reaches: reaches, subtreeReaches: subtreeReaches)
            }
            if upper > middle + 1, offset >= 0 || offset * offset <= Double(subtreeReaches[middle + 1 + (upper - middle - 1) / 2]) {
                reaching(middle + 1, upper, axis: next, reaches: reaches, subtreeReaches: subtreeReaches)
            }
        }
    }
}
