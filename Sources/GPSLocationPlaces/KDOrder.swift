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

    /// The row nearest to `point` among `rows` (all of them when `filter` is `nil`, else those
    /// it accepts); `nil` when there are none.
    static func nearest<Rows: KDRows>(to point: UnitVector, in rows: Rows, filter: Rows.Filter? = nil) -> Int? {
        var search = Search(rows: rows, target: point, limit: .infinity, filter: filter)
        search.nearest(0, rows.rowCount, axis: 0)
        return search.found.first
    }

    /// The rows whose own reach takes in `point`: those whose squared chord to it is at most
    /// their `reach`. Their `subtreeReach` (`subtreeMaxima` of the reaches) lets the search skip
    /// every part of the tree that reaches nowhere near.
    static func rows<Rows: KDRows>(reaching point: UnitVector, in rows: Rows) -> [Int] {
        var search = Search(rows: rows, target: point, limit: 0, filter: nil)
        search.reaching(0, rows.rowCount, axis: 0)
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
    private struct Search<Rows: KDRows> {
        let rows: Rows
        let target: UnitVector
        /// For `nearest`, the squared chord of the best row so far (`reaching` uses each row's reach).
        var limit: Double
        /// For `nearest`, only rows it accepts count (all when `nil`).
        let filter: Rows.Filter?
        var found: [Int] = []

        @inline(__always)
        private func chordSquared(_ row: Int) -> Double {
            let dx = target.x - Double(rows.component(row, 0))
            let dy = target.y - Double(rows.component(row, 1))
            let dz = target.z - Double(rows.component(row, 2))
            return dx * dx + dy * dy + dz * dz
        }

        /// How far `target` is past the splitting row's plane on `axis` (negative: below it).
        @inline(__always)
        private func offset(_ row: Int, axis: Int) -> Double {
            let component = axis == 0 ? target.x : axis == 1 ? target.y : target.z
            return component - Double(rows.component(row, axis))
        }

        /// Whether row `row` counts for `nearest`.
        @inline(__always)
        private func isAccepted(_ row: Int) -> Bool {
            guard let filter else { return true }
            return rows.accepts(row, filter)
        }

        mutating func nearest(_ lower: Int, _ upper: Int, axis: Int) {
            guard lower < upper else { return }
            let middle = lower + (upper - lower) / 2
            let squared = chordSquared(middle)
            if squared < limit, isAccepted(middle) {
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
        mutating func reaching(_ lower: Int, _ upper: Int, axis: Int) {
            guard lower < upper else { return }
            let middle = lower + (upper - lower) / 2
            let squared = chordSquared(middle)
            if squared <= Double(rows.reach(middle)) { found.append(middle) }
            let next = axis == 2 ? 0 : axis + 1
            let offset = offset(middle, axis: axis)
            if middle > lower, offset <= 0 || offset * offset <= Double(rows.subtreeReach(lower + (middle - lower) / 2)) {
                reaching(lower, middle, axis: next)
            }
            if upper > middle + 1, offset >= 0 || offset * offset <= Double(rows.subtreeReach(middle + 1 + (upper - middle - 1) / 2)) {
                reaching(middle + 1, upper, axis: next)
            }
        }
    }
}

/// The rows a `KDOrder` search reads, in the tree's order, wherever they are kept (the place
/// index reads them from its file in place).
protocol KDRows {
    /// What a nearest-row search may be narrowed to.
    associatedtype Filter
    /// The number of rows.
    var rowCount: Int { get }
    /// Component `axis` (0, 1, 2: x, y, z) of row `row`'s unit vector.
    func component(_ row: Int, _ axis: Int) -> Float
    /// Whether row `row` counts for a search narrowed to `filter`.
    func accepts(_ row: Int, _ filter: Filter) -> Bool
    /// The squared chord row `row` reaches.
    func reach(_ row: Int) -> Float
    /// The largest `reach` in the subtree row `row` splits.
    func subtreeReach(_ row: Int) -> Float
}
