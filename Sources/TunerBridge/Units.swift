/// Units as types, so that meaningless arithmetic (hertz plus cents) does not compile.

/// A frequency in hertz.
public struct Hertz: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static func < (a: Hertz, b: Hertz) -> Bool { a.value < b.value }
    public var description: String { "\(value) Hz" }

    /// The interval from `reference` to `self` (positive when `self` is higher).
    public func cents(from reference: Hertz) -> Cents {
        Cents(1200 * log2(value / reference.value))
    }
    /// The frequency `interval` above `self`.
    public func shifted(by interval: Cents) -> Hertz {
        Hertz(value * exp2(interval.value / 1200))
    }
}

/// An interval in cents: 1/100 of an equal-tempered semitone.
public struct Cents: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static func < (a: Cents, b: Cents) -> Bool { a.value < b.value }
    public static func + (a: Cents, b: Cents) -> Cents { Cents(a.value + b.value) }
    public static func - (a: Cents, b: Cents) -> Cents { Cents(a.value - b.value) }
    public static prefix func - (a: Cents) -> Cents { Cents(-a.value) }
    public var magnitude: Cents { Cents(abs(value)) }
    public var description: String { "\(value) ¢" }

    /// The value limited to `range` (the display range of a tuner is ±50 ¢).
    public func clamped(to range: ClosedRange<Double>) -> Cents {
        Cents(min(max(value, range.lowerBound), range.upperBound))
    }
}

/// A level in decibels relative to digital full scale.
public struct Decibels: Hashable, Comparable, Sendable {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static func < (a: Decibels, b: Decibels) -> Bool { a.value < b.value }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
