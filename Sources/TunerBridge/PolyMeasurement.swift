/// What the polyphonic analyser measured for one string at one hop: physics only (TunerMusic's
/// `StrumJudge` names the string's target, the cents and in tune).
public struct StringMeasurement: Sendable, Equatable {
    /// The string's first-partial frequency; nil when the string is not heard (muted, decayed under the
    /// gate, or only partials another string explains).
    public var frequency: Hertz?
    /// RMS level of the string's own partials (−120 dBFS when not heard).
    public var level: Decibels
    /// The share 0…1 of the energy on the string's series that is its own, not another string's.
    public var clarity: Double

    public init(frequency: Hertz?, level: Decibels, clarity: Double) {
        self.frequency = frequency
        self.level = level
        self.clarity = clarity
    }
}

/// One hop of a strum's per-string measurements, in string order, stored inline: at most
/// `capacity` strings (the C analyser's `CT_POLY_MAX_STRINGS`, which `ct_poly_create` enforces), so
/// making, copying and handing one over between threads never touches the heap — the analysis thread's
/// callback makes one per hop, and the real-time path never allocates per block.
public struct PolyStrings: RandomAccessCollection, Sendable, Equatable {
    /// The most strings one measurement holds: `CT_POLY_MAX_STRINGS` in ctuner.h (a 12-string guitar).
    /// The inline array's size is a literal that Swift needs at compile time; PolyAllocationTests checks
    /// that it equals the C constant.
    public static let capacity = 12
    private var storage = InlineArray<12, StringMeasurement>(repeating: .unheard)
    public private(set) var count = 0

    /// No strings yet.
    public init() {}

    /// The given strings, in order; at most `capacity` (a precondition: the analyser never reads more).
    public init(_ strings: some Sequence<StringMeasurement>) {
        for string in strings { append(string) }
    }

    /// Adds the next string's measurement; there must be room (at most `capacity`).
    public mutating func append(_ string: StringMeasurement) {
        precondition(count < Self.capacity, "a strum holds at most \(Self.capacity) strings")
        storage[count] = string
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> StringMeasurement {
        precondition(position >= 0 && position < count, "string index out of range")
        return storage[position]
    }

    /// Iterates the strings in order. Its own iterator rather than the default `IndexingIterator`, which
    /// reads each element through the collection's generic read accessor: unspecialised in a debug build,
    /// that accessor heap-allocates a coroutine frame per element (AllocationTests counted them).
    public struct Iterator: IteratorProtocol {
        private let strings: PolyStrings
        private var position = 0
        init(_ strings: PolyStrings) { self.strings = strings }
        public mutating func next() -> StringMeasurement? {
            guard position < strings.count else { return nil }
            defer { position += 1 }
            return strings[position]
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public static func == (a: PolyStrings, b: PolyStrings) -> Bool { a.elementsEqual(b) }
}

extension StringMeasurement {
    /// A string not heard: no frequency, the −120 dBFS floor, no clarity.
    public static let unheard = StringMeasurement(frequency: nil, level: Decibels(-120), clarity: 0)
}

/// One hop of a strum: every string's measurement, in string order.
public struct PolyMeasurement: Sendable, Equatable {
    /// Seconds of input consumed when the measurement was made.
    public var time: Double
    public var strings: PolyStrings

    public init(time: Double, strings: PolyStrings) {
        self.time = time
        self.strings = strings
    }

    /// From an array of at most `PolyStrings.capacity` strings (tests, fixtures; not the real-time path).
    public init(time: Double, strings: [StringMeasurement]) {
        self.init(time: time, strings: PolyStrings(strings))
    }
}

/// What a session that can switch between single-string and strum analysis (the screen's key p)
/// delivers: one or the other, whichever engine was running for that block.
public enum SessionMeasurement: Sendable, Equatable {
    case single(PitchMeasurement)
    case strum(PolyMeasurement)
}
