# SPDX-License-Identifier: GPL-3.0-or-later
"""Where, in a recording of the null sink, our stale speech stopped, when something else (the new
announcement) may follow it without a gap.

speech-dispatcher plays every message of ours through one PulseAudio stream, so the stale readback
and the announcement that supersedes it are one sound on the sink. The recording is compared, piece
by piece, with reference recordings of the same readback played out uncut: the last piece that is
found in a reference is the last stale sound. The sink's audio is not sample-identical run to run:

- speech-dispatcher's 10 ms PulseAudio buffer (AudioPulseMinLength) runs dry every few tens of
  milliseconds on the null sink, so the recording has exact-zero gaps of 5-15 ms inside words and
  loses ~1-2 ms of audio after each gap, at different places in every run;
- the same words, between gaps, agree for a few milliseconds and then drift apart within tens of
  milliseconds (espeak-ng state carried from message to message in the long-lived module, likely
  its pitch flutter; the espeak-ng CLI writes identical files).

So the recording is cut into pieces at every zero run and every PIECE samples, and each piece is
aligned on its own: the best position in each reference near where the previous piece matched
(normalised squared error, numpy's correlate; the band spectrum where the waveform differs), the
best of the references kept. Validated in speechd.py against cuts whose position is known.
"""
import numpy

RATE = 44100
PIECE = 220  # 5 ms: short enough that the waveform's drift inside a piece is small
GAP = 16  # zero runs longer than this (0.36 ms) split pieces: stutter gaps and natural pauses
SHORTEST = 32  # pieces shorter than this are too short to identify and are not classified
STEP = 44  # 1 ms: the resolution of the refinement inside the first piece that is not stale
# Normalised error under which a piece is the stale words (measured on 60 splices of two runs: stale
# pieces 99 % under 0.2, the worst 0.25; the first six pieces of other speech after a cut about 4 %
# under 0.2, half over 0.6).
MATCH = 0.2
SLACK = 300  # 6.8 ms: about one pitch period of the default voice
AFTER_GAP = 882  # 20 ms more after a gap or a pause
START = 2205  # 50 ms: the first sound of a message on the sink comes 0-30 ms into its audio
SPECTRAL = 0.3  # band-energy distance (decades) under which a piece whose waveform differs is the stale
# words all the same: some stretches differ every time (stale: 0 of ~33 000 pieces missed; other speech:
# 3 % of pieces match, which the change point in stale_end outvotes)
RUN = 8  # 40 ms of sound unlike the stale words: the stale speech is over
QUIET = 200  # pieces quieter than this (RMS) are compared as if this loud: fading tails differ most


def pieces(samples):
    """(start, end) of the sounding pieces: runs of nonzero samples split at gaps and every PIECE."""
    nonzero = numpy.flatnonzero(samples)
    if len(nonzero) == 0:
        return []
    breaks = numpy.flatnonzero(numpy.diff(nonzero) > GAP)
    starts = numpy.concatenate([[nonzero[0]], nonzero[breaks + 1]])
    ends = numpy.concatenate([nonzero[breaks], [nonzero[-1]]]) + 1
    result = []
    for start, end in zip(starts.tolist(), ends.tolist()):
        for piece in range(start, end, PIECE):
            result.append((piece, min(end, piece + PIECE)))
    return result


def best_match(reference, block, low, high):
    """(normalised error, position) of the best alignment of block in reference[low:high + len]."""
    length = len(block)
    low = max(0, low)
    window = reference[low:min(len(reference), high + length)]
    if len(window) < length:
        return 9.0, low
    correlation = numpy.correlate(window, block, "valid")
    cumulative = numpy.concatenate([[0.0], numpy.cumsum(window * window)])
    error = cumulative[length:] - cumulative[:-length] - 2 * correlation
    index = int(numpy.argmin(error))
    energy = max(float(block @ block), length * QUIET * QUIET)
    return max(0.0, float(error[index]) + energy) / energy, low + index


def bands(block):
    """Log energy in nine bands (0.17-22 kHz, wider upwards) of a piece, floored at a quiet level."""
    spectrum = numpy.abs(numpy.fft.rfft(block * numpy.hanning(len(block)), 256)) ** 2
    edges = [1, 4, 8, 16, 24, 32, 48, 64, 96, 129]
    return numpy.log10(numpy.array([spectrum[a:b].sum() for a, b in zip(edges[:-1], edges[1:])]) + 1e3)


def spectral_distance(block, reference):
    """Mean absolute difference of the band energies, in decades."""
    return float(numpy.mean(numpy.abs(bands(block) - bands(reference))))


def content(samples):
    """The samples with every zero run longer than GAP taken out: the words without the gaps, which
    differ from run to run (the stutter) or carry nothing to compare (pauses)."""
    samples = numpy.asarray(samples, dtype=float)
    return numpy.concatenate([samples[start:end] for start, end in pieces(samples)] or [samples[:0]])


class Tracker:
    """Follows the stale words through the recording, one piece at a time, in every reference (each
    without its gaps: a piece of the recording continues where the previous one matched; after a gap,
    which lost 1-2 ms of audio, or a pause, whose edges fade differently each time, a little further
    either way). A wider search finds other words of the readback in the new announcement ("nine")."""

    def __init__(self, references):
        self.references = [content(r) for r in references]
        self.positions = [None] * len(self.references)

    def error(self, block, after_gap, exact=False):
        """The piece's best error over the references; moves every reference on past it. `exact`:
        the waveform alone, a pitch period either side (for short pieces, which match too easily)."""
        best = 9.0
        for index, reference in enumerate(self.references):
            position = self.positions[index]
            if position is None:  # the first piece: both start with the readback's first sound
                low, high = 0, START
            else:  # a pitch period either side (the waveform's drift shifts the best alignment)
                slack = SLACK + (AFTER_GAP if after_gap and not exact else 0)
                low, high = position - slack, position + slack
            error, at = best_match(reference, block, low, high)
            if error >= MATCH and position is not None and not exact:  # the waveform differs: the spectrum?
                expected = reference[position:position + len(block)]
                if len(expected) == len(block):
                    error = min(error, spectral_distance(block, expected) * MATCH / SPECTRAL)
            best = min(best, error)
            if error < MATCH or position is None:
                self.positions[index] = at + len(block)
            else:
                self.positions[index] += len(block)
        return best


def stale_end(recording, references):
    """(last stale sample + 1, first sample after it that sounds and is not stale, errors) in
    recording, which starts with the stale speech; (None, None, errors) if nothing matched. Every
    piece is classified; the end is the change point that agrees with the most of them (stale
    before, not stale after), so a stale piece that matches badly or another sound's piece that
    happens to match (each a few %) does not move it."""
    samples = numpy.asarray(recording, dtype=float)
    tracker = Tracker(references)
    previous_end, errors = 0, []
    for start, end in pieces(samples):
        if end - start < SHORTEST:
            continue
        errors.append((start, end, tracker.error(samples[start:end], start > previous_end)))
        previous_end = end
    stale = [error < MATCH for _, _, error in errors]
    # Up to the first run of RUN pieces that match nothing: after it, the references are lost and,
    # by following each piece a pitch period at a time, can lock on to the same words said anew
    # ("nine" in "deleted 9").
    run = 0
    for index, is_stale in enumerate(stale):
        run = 0 if is_stale else run + 1
        if run == RUN:
            stale = stale[:index + 1]
            break
    if not any(stale):
        return None, None, errors
    # score[k]: pieces 0..k stale, k+1.. not: matches up to k plus misses after k.
    misses_after = numpy.concatenate([numpy.cumsum(numpy.logical_not(stale)[::-1])[::-1][1:], [0]])
    score = numpy.cumsum(stale) + misses_after
    score[numpy.logical_not(stale)] = -1  # the last stale piece is a stale one
    k = int(numpy.argmax(score))
    last_stale = errors[k][1]
    if k + 1 == len(stale):
        return last_stale, None, errors
    # The cut may fall inside the next piece: keep its longest stale prefix (2 ms at least: shorter
    # ones match other speech too easily), aligned from where piece k matched.
    start, end, _ = errors[k + 1]
    tracker = Tracker(references)
    previous_end = 0
    for piece_start, piece_end, _ in errors[:k + 1]:
        tracker.error(samples[piece_start:piece_end], piece_start > previous_end)
        previous_end = piece_end
    positions = list(tracker.positions)
    for length in range(end - start - STEP, 2 * STEP - 1, -STEP):
        tracker.positions = list(positions)
        if tracker.error(samples[start:start + length], start > last_stale, exact=True) < MATCH:
            last_stale = start + length
            break
    return last_stale, max(start, last_stale), errors
