/// Arithmetic that stops at the type's bounds instead of trapping, for numbers that came from
/// outside (tokens, requests, packets, configuration): a huge value can be refused or clamped,
/// but it never stops the relay.
extension FixedWidthInteger {
    /// `self + other`, or the nearest bound when the sum does not fit.
    @inlinable
    public func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, or the nearest bound when the difference does not fit.
    @inlinable
    public func saturatingSubtracting(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }

    /// `self * other`, or the nearest bound when the product does not fit.
    @inlinable
    public func saturatingMultiplied(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) != (other < 0) ? .min : .max
    }
}
