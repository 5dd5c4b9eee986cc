#!/usr/bin/env bash
# Keeps the SDK importable on its platform floor: RatesCore and RatesClient must not use an API
# newer than iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1 (Package.swift's `platforms`).
#
# Nothing on Linux can build for an Apple platform, and the Linux compiler ignores Apple
# availability, so this greps the two targets' Swift sources (`//` comments left out) for the
# newer APIs a Swift developer is likely to reach for. The availability of each was read from
# the toolchain's own interfaces (`/opt/swift/usr/lib/swift/linux/*.swiftmodule/*.swiftinterface`
# keep the Apple `@available` attributes) or from Apple's Foundation documentation.
#
# Allowed, because they exist at the floor (or are back-deployed or emitted into the client):
# Duration, ContinuousClock, Clock.sleep(for:), Task.sleep(for:), withTaskGroup,
# AsyncStream.makeStream, Collection.count(where:), Regex, `any P<T>`, `some AsyncSequence<T>`,
# FormatStyle (`.formatted(.iso8601)`, Date.ISO8601FormatStyle: iOS 15), URL.cachesDirectory,
# URL.appending(path:), NSLock (what `Locked` in RatesCore uses instead of Mutex).
# Not found by a grep (only a build for an Apple platform finds them): typed-throws function
# types or noncopyable types used as generic arguments (they need the iOS 18 runtime).
#
# Exits 1 listing each use (file:line, the API, where it first appears), 0 when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."

floor='.iOS(.v16), .macCatalyst(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)'
targets=(Sources/RatesCore Sources/RatesClient)
ios18='iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2'
ios17='iOS 17, macOS 14, tvOS 17, watchOS 10'
ios26='iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26'

# The rules were written for this floor; another one needs another list.
if ! grep -qF "platforms: [$floor]" Package.swift; then
    echo "check-platform-floor: Package.swift no longer declares platforms: [$floor];" >&2
    echo "update this script's floor and its list of newer APIs together with it." >&2
    exit 1
fi

# One rule a line, tab-separated: Perl regex, the API, where it first appears, an example the regex must match.
rules=$(cat <<RULES
\bimport\s+Synchronization\b	the Synchronization module (Mutex, Atomic)	$ios18	import Synchronization
\bMutex\b	Synchronization.Mutex (use Locked from RatesCore)	$ios18	let state = Mutex(0)
\bAtomic(?:LazyReference)?\b|\bWordPair\b	Synchronization.Atomic (use Locked from RatesCore)	$ios18	let flag = Atomic(false)
\b(?:with)?(?:Throwing)?DiscardingTaskGroup\b	discarding task groups (use withTaskGroup)	$ios17	await withDiscardingTaskGroup { group in }
\bimport\s+Observation\b|@Observable\b|\bwithObservationTracking\b	the Observation module	$ios17	@Observable final class Model {}
\bimport\s+SwiftData\b	SwiftData	$ios17	import SwiftData
\bU?Int128\b	Int128, UInt128	$ios18	let wide: Int128 = 0
\bRangeSet\b|\bDiscontiguousSlice\b|\b(?:remove|removing|move)Subranges\b|\bindices\(\s*where:	RangeSet and its collection operations	$ios18	let found = values.indices(where: { \$0 > 1 })
\bDuration\s*\(\s*attoseconds:|(?<!components)\.attoseconds\b	Duration.attoseconds (Int128; use Duration.components)	$ios18	let a = duration.attoseconds
\bString\s*\(\s*validating:	String(validating:as:)	$ios18	let text = String(validating: bytes, as: UTF8.self)
\bTaskExecutor\b|\bwithTaskExecutorPreference\b|\bexecutorPreference:	task executors	$ios18	Task(executorPreference: executor) {}
\bisolated\s+deinit\b	isolated deinit	$ios18	isolated deinit {}
\b(?:some|any)\s+Async(?:Sequence|IteratorProtocol)\s*<[^>]*,	AsyncSequence's Failure type (typed throws)	$ios18	func f() -> some AsyncSequence<Int, Never>
\bCalendar\.RecurrenceRule\b|\.dates\(\s*(?:byMatching|byAdding):	Calendar.RecurrenceRule, Calendar.dates(byMatching:)	$ios18	for date in calendar.dates(byMatching: components) {}
#Predicate\b|\bPredicate\s*<	Foundation.Predicate	$ios17	let p = #Predicate<Int> { \$0 > 1 }
#Expression\b|\bExpression\s*<	Foundation.Expression	$ios18	let e = #Expression<Int, Int> { \$0 }
\b(?:struct|class|enum|actor)\s+\w+\s*<[^>]*\beach\b	generic types with parameter packs	$ios17	struct Tuple<each Element> {}
\bTask\.immediate(?:Detached)?\b|\bTask(?:<[^>]*>)?\s*\(\s*name:|\bTask\.name\b|\.escalatePriority\b	Task.immediate, task names, priority escalation	$ios26	Task(name: "sync") {}
\bInlineArray\b|\b(?:UTF8|Mutable|MutableRaw|Output)Span\b|\.(?:span|mutableSpan|utf8Span)\b	InlineArray and the span properties	$ios26	let s = array.span
RULES
)

# Every Swift line of the SDK as file:line:code, with `//` comments removed.
code=$(find "${targets[@]}" -name '*.swift' -print0 | sort -z | xargs -0 perl -ne 's{//.*$}{}; print "$ARGV:$.:$_"; close ARGV if eof')

failures=0
while IFS=$'\t' read -r pattern api since example; do
    # A rule that cannot match its own example would pass silently forever.
    if ! printf '%s\n' "$example" | grep -qP -- "$pattern"; then
        echo "check-platform-floor: the rule for $api does not match its example '$example'; fix the rule." >&2
        exit 1
    fi
    status=0
    hits=$(printf '%s\n' "$code" | grep -P -- "^[^:]*:[0-9]+:.*?(?:$pattern)") || status=$?
    if [ "$status" -gt 1 ]; then
        echo "check-platform-floor: the rule for $api is not a valid Perl regex." >&2
        exit 1
    fi
    [ "$status" -eq 0 ] || continue
    while IFS= read -r hit; do
        location=$(cut -d: -f1-2 <<<"$hit")
        echo "$location: $api needs $since" >&2
        echo "    $(cut -d: -f3- <<<"$hit" | sed -E 's/^[[:space:]]+//')" >&2
        failures=$((failures + 1))
    done <<<"$hits"
done <<<"$rules"

if [ "$failures" -gt 0 ]; then
    echo "check-platform-floor: $failures use(s) of APIs newer than the SDK's floor in ${targets[*]}." >&2
    echo "Apps with deployment targets iOS 16 / macOS 13 / tvOS 16 / watchOS 9 / visionOS 1 could not build RatesClient;" >&2
    echo "use an API that exists there (README, \"Platforms\")." >&2
    exit 1
fi
echo "check-platform-floor: RatesCore and RatesClient use no API newer than iOS 16 / macOS 13 / tvOS 16 / watchOS 9 / visionOS 1 ($(wc -l <<<"$rules") rules)."
