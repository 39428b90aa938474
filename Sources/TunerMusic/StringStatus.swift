/// One string of the tuning row on the screen: its name, whether it is the target (highlighted),
/// locked by the player, and done (✓).
public struct StringStatus: Sendable, Equatable {
    /// 1-based, as shown and as the key that locks it.
    public var number: Int
    /// The note as the tuning spells it ("Eb2").
    public var label: String
    public var note: Note
    /// The current target string (it stays the target while no pitch is heard).
    public var isActive: Bool
    /// Locked by the player with its number key.
    public var isLocked: Bool
    /// Last settled within tolerance (✓).
    public var isDone: Bool
    /// Its last settled reading, if any.
    public var lastSettled: SettledNote?
}

extension TuningTracker {
    /// The tuning row, in string order; empty in chromatic mode.
    public var strings: [StringStatus] {
        guard let selector, let checklist else { return [] }
        return selector.tuning.strings.indices.map { i in
            StringStatus(number: i + 1, label: selector.tuning.labels[i], note: selector.tuning.strings[i],
                         isActive: selector.current == i, isLocked: selector.locked == i,
                         isDone: checklist.isDone(i), lastSettled: checklist.last[i])
        }
    }
}
