"""Decoder for HdrHistogram's V2 compressed encoding (base64 text, as omb-tx stores it in results).

Layout (all integers big-endian), as written by Java's ``Histogram.encodeIntoCompressedByteBuffer``:

* compressed wrapper: int32 cookie (0x1c849314 base), int32 length of the deflated block, zlib data;
* inflated block: int32 cookie (0x1c849303 base), int32 payload length, int32 normalizing index offset,
  int32 significant value digits, int64 lowest discernible value, int64 highest trackable value,
  float64 integer-to-double ratio, then the counts array as ZigZag LEB128 varints where a negative
  number -n stands for n consecutive empty buckets.

Only what the charts need is implemented: bucket layout, counts, and percentile look-ups that return
the same values as Java's ``getValueAtPercentile``.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
import zlib
from dataclasses import dataclass

_V2_ENCODING_COOKIE_BASE = 0x1C849303
_V2_COMPRESSED_COOKIE_BASE = 0x1C849304
# The low nibble of the second byte carries the word size; HdrHistogram masks it off before comparing.
_COOKIE_WORD_SIZE_MASK = 0xF0
_V2_HEADER = struct.Struct(">iiiiqqd")


class HistogramDecodeError(ValueError):
    """The text is not a histogram this decoder understands."""


@dataclass(frozen=True)
class Histogram:
    """A decoded integer HdrHistogram: bucket layout plus counts (values in the recorded unit)."""

    significant_digits: int
    lowest_discernible_value: int
    highest_trackable_value: int
    counts: tuple[int, ...]

    @property
    def unit_magnitude(self) -> int:
        return int(math.floor(math.log2(self.lowest_discernible_value)))

    @property
    def sub_bucket_half_count_magnitude(self) -> int:
        largest_single_unit_value = 2 * 10**self.significant_digits
        sub_bucket_count_magnitude = int(math.ceil(math.log2(largest_single_unit_value)))
        return max(sub_bucket_count_magnitude, 1) - 1

    @property
    def total_count(self) -> int:
        return sum(self.counts)

    def _bucket_of_index(self, index: int) -> tuple[int, int]:
        half_magnitude = self.sub_bucket_half_count_magnitude
        half_count = 1 << half_magnitude
        bucket = (index >> half_magnitude) - 1
        sub_bucket = (index & (half_count - 1)) + half_count
        if bucket < 0:
            sub_bucket -= half_count
            bucket = 0
        return bucket, sub_bucket

    def lowest_value_at_index(self, index: int) -> int:
        bucket, sub_bucket = self._bucket_of_index(index)
        return sub_bucket << (bucket + self.unit_magnitude)

    def highest_value_at_index(self, index: int) -> int:
        """The largest value that falls in this bucket (what Java reports for a percentile)."""
        bucket, _ = self._bucket_of_index(index)
        return self.lowest_value_at_index(index) + (1 << (bucket + self.unit_magnitude)) - 1

    def value_at_percentile(self, percentile: float) -> int:
        """Value at ``percentile`` (0..100), equal to Java's ``getValueAtPercentile``."""
        total = self.total_count
        if total == 0:
            return 0
        # One ulp below the request, as Java does, so that e.g. 14% of 50 (7.000000000000001 in
        # floating point) lands on the 7th value rather than the 8th.
        requested = min(max(math.nextafter(percentile, -math.inf), 0.0), 100.0)
        count_at_percentile = max(1, math.ceil(requested / 100.0 * total))
        running = 0
        for index, count in enumerate(self.counts):
            running += count
            if running >= count_at_percentile:
                if percentile == 0.0:
                    return self.lowest_value_at_index(index)
                return self.highest_value_at_index(index)
        return 0

    def min_value(self) -> int:
        for index, count in enumerate(self.counts):
            if count:
                return self.lowest_value_at_index(index)
        return 0

    def max_value(self) -> int:
        for index in range(len(self.counts) - 1, -1, -1):
            if self.counts[index]:
                return self.highest_value_at_index(index)
        return 0


def decode_base64(text: str) -> Histogram:
    """Decode the base64 text of a compressed V2 histogram."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise HistogramDecodeError(f"not base64: {error}") from None
    return decode_compressed(raw)


def decode_compressed(raw: bytes) -> Histogram:
    if len(raw) < 8:
        raise HistogramDecodeError("shorter than the 8-byte compressed header")
    cookie, deflated_length = struct.unpack_from(">ii", raw, 0)
    if cookie & ~_COOKIE_WORD_SIZE_MASK != _V2_COMPRESSED_COOKIE_BASE:
        raise HistogramDecodeError(f"unknown compressed cookie 0x{cookie & 0xFFFFFFFF:08x} (only V2 is supported)")
    if deflated_length > len(raw) - 8:
        raise HistogramDecodeError("compressed length runs past the end of the data")
    try:
        inflated = zlib.decompress(raw[8 : 8 + deflated_length])
    except zlib.error as error:
        raise HistogramDecodeError(f"cannot inflate: {error}") from None
    return decode_uncompressed(inflated)


def decode_uncompressed(raw: bytes) -> Histogram:
    if len(raw) < _V2_HEADER.size:
        raise HistogramDecodeError("shorter than the V2 header")
    (cookie, payload_length, normalizing_offset, digits, lowest, highest, _ratio) = _V2_HEADER.unpack_from(raw, 0)
    if cookie & ~_COOKIE_WORD_SIZE_MASK != _V2_ENCODING_COOKIE_BASE:
        raise HistogramDecodeError(f"unknown encoding cookie 0x{cookie & 0xFFFFFFFF:08x} (only V2 is supported)")
    if normalizing_offset != 0:
        raise HistogramDecodeError("shifted histograms (normalizing index offset != 0) are not supported")
    if not 0 <= digits <= 5 or lowest < 1:
        raise HistogramDecodeError("implausible header (significant digits or lowest discernible value)")
    payload = raw[_V2_HEADER.size : _V2_HEADER.size + payload_length]
    if len(payload) != payload_length:
        raise HistogramDecodeError("payload shorter than its declared length")
    return Histogram(digits, lowest, highest, tuple(_decode_counts(payload)))


def _decode_counts(payload: bytes) -> list[int]:
    counts: list[int] = []
    position = 0
    while position < len(payload):
        value, position = _read_zigzag_varint(payload, position)
        if value < 0:
            counts.extend([0] * -value)
        else:
            counts.append(value)
    return counts


def _read_zigzag_varint(data: bytes, position: int) -> tuple[int, int]:
    """One ZigZag LEB128 number: up to 8 bytes of 7 bits each, then a 9th byte of 8 bits."""
    unsigned = 0
    for byte_number in range(9):
        if position >= len(data):
            raise HistogramDecodeError("counts end in the middle of a number")
        byte = data[position]
        position += 1
        if byte_number == 8:
            unsigned |= byte << 56
            break
        unsigned |= (byte & 0x7F) << (7 * byte_number)
        if not byte & 0x80:
            break
    return (unsigned >> 1) ^ -(unsigned & 1), position
