/// Provider keys the code names: Frankfurter's keys (`ECB`, `NBP`, …), so its clients' `providers=` values work.
public enum ProviderKey {
    /// The European Central Bank: the first in precedence for its currencies, and the default source of a stored value.
    public static let ecb = "ECB"
}
