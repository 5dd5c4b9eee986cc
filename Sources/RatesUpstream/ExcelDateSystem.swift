import RatesCore

/// Excel's two date systems: which day a date serial stored in a workbook names. The XLSX and the
/// XLS readers both read serials through it (``XLSXWorkbook/day(serial:)``, ``BIFFWorkbook/day(serial:)``).
public enum ExcelDateSystem: Sendable {
    /// The 1900 system (Excel's default): serial 1 is 1900-01-01 and serial 60 is 1900-02-29, a day that
    /// never was (Lotus 1-2-3 counted 1900 as a leap year, and Excel kept it); from 61 on, the serial is
    /// the number of days after 1899-12-30.
    case from1900
    /// The 1904 system (early Mac Excel): serial 0 is 1904-01-01.
    case from1904

    /// The day a whole serial names; `nil` for one that names none (a negative serial, 0 or 60 in the 1900 system).
    func day(serial: Int) -> Day? {
        switch self {
        case .from1904:
            return serial >= 0 ? Day(year: 1904, month: 1, day: 1)!.adding(days: serial) : nil
        case .from1900:
            guard serial >= 1, serial != 60 else { return nil }
            return Day(year: 1899, month: 12, day: serial < 60 ? 31 : 30)!.adding(days: serial)
        }
    }
}
