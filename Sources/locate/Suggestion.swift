/// "Did you mean ...?": the names a mistyped word is close to, by edit distance.
enum Suggestion {
    /// The candidates `word` is a slip of: at an edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours) of at most 1 for a word of 4 or 5 characters, 2 for
    /// a longer one; a word of 3 or fewer only when it is a candidate itself. Only the nearest, in
    /// the candidates' order.
    static func nearest(_ word: String, among candidates: [String]) -> [String] {
        nearest(word, among: candidates.map { ($0, $0) })
    }

    /// The same over candidates compared by `name` and shown as `shown` (`allow` as
    /// `permission allow`).
    static func nearest(_ word: String, among candidates: [(name: String, shown: String)]) -> [String] {
        let typed = Array(word.lowercased().utf8)
        let limit = typed.count <= 3 ? 0 : typed.count <= 5 ? 1 : 2
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let distance = Self.distance(typed, Array(candidate.name.lowercased().utf8), limit: limit)
            return distance <= limit ? (candidate.shown, distance) : nil
        }
        let nearest = scored.map(\.1).min()
        return scored.filter { $0.1 == nearest }.map(\.0)
    }

    /// `"; did you mean 'x'?"` (or `'x' or 'y'`), or `""` when nothing is near.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let near = nearest(word, among: candidates).prefix(2)
        guard !near.isEmpty else { return "" }
        return "; did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// The optimal-string-alignment distance of `a` and `b`, or `limit + 1` once it must exceed `limit`.
    private static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
