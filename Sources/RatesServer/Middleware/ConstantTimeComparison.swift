/// Compares without an early exit, so timing does not reveal how much of the token matched.
func constantTimeEquals(_ presented: some Collection<UInt8>, _ expected: some Collection<UInt8>) -> Bool {
    let presented = Array(presented)
    var difference = presented.count ^ expected.count
    for (index, byte) in expected.enumerated() {
        difference |= Int(byte ^ (index < presented.count ? presented[index] : 0))
    }
    return difference == 0
}
