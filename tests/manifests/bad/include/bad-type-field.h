/* Included by bad/include-bad-type.h: a field of a platform-dependent type, one line down. */
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, long, Size)
