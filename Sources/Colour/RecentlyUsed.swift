/// A few values by key, the least recently used dropped first. Linear: meant for a handful of
/// entries (a converter's transforms), where a scan is cheaper than any bookkeeping.
struct RecentlyUsed<Key: Hashable, Value> {
    let capacity: Int
    /// Most recently used last.
    private var entries: [(key: Key, value: Value)] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }
    var keys: [Key] { entries.map(\.key) }

    /// The value for `key`, now the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let index = entries.lastIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.value
    }

    /// Adds or replaces `key`'s value as the most recently used, dropping the least recently used
    /// past `capacity`.
    mutating func insert(_ value: Value, for key: Key) {
        entries.removeAll { $0.key == key }
        entries.append((key, value))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}
