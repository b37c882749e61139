/* test_gen_cxx.cpp — the generated code used from C++, as runtimes written in C++ use it:
 * compiled as C++ (gcevents_runtime_cxx: the generated .c built as C++) and called with char16_t
 * strings and C++ types, then read back through the generated reader from C++. */
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <csetjmp>
#include <string>

extern "C" { /* cmocka 1.1 has no C++ linkage guards of its own */
#include <cmocka.h>
}

#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_reader.h"
#include "gcevents_runtime.h"

static void test_fire_and_read_from_cxx(void **)
{
    evgen_session *s = evgen_session_open_memory(nullptr);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, nullptr, 5, ~0ull), 0);
    const std::u16string type_name = u"System.Collections.Generic.Dictionary`2[\u4e2d,\u00e9]";
    static const GCLOHCompactInfo compact[2] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
    FIRE_EVENT(GCHeapStats, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0x4444u, 16);
    FIRE_EVENT(GCAllocationTick, 100, GCAllocationKind_Large, 1, 100000, nullptr, type_name.c_str(), 2, nullptr, 96);
    FIRE_EVENT(GCLOHCompact, 9, 2, compact);
    uint8_t *trace = nullptr;
    size_t size = 0;
    assert_int_equal(evgen_session_close(s, nullptr, &trace, &size), 0);

    evgen_reader *r = evgen_reader_open_memory(trace, size, nullptr);
    assert_non_null(r);
    evgen_event ev;
    assert_true(evgen_reader_next(r, &ev));
    assert_true(GCHeapStats_is(&ev));
    assert_int_equal(GCHeapStats_GenerationSize4(&ev), 0x4444u);
    assert_true(evgen_reader_next(r, &ev));
    assert_true(GCAllocationTick_is(&ev));
    assert_int_equal(GCAllocationTick_AllocationKind(&ev), GCAllocationKind_Large);
    evgen_utf16_view name = GCAllocationTick_TypeName(&ev);
    assert_int_equal(name.units, type_name.size());
    assert_memory_equal(name.data, type_name.data(), 2 * type_name.size());
    char utf8[128];
    evgen_utf16_to_utf8(name, utf8, sizeof utf8);
    assert_string_equal(utf8, "System.Collections.Generic.Dictionary`2[\xe4\xb8\xad,\xc3\xa9]");
    assert_int_equal(GCAllocationTick_ObjectSize(&ev), 96);
    assert_true(evgen_reader_next(r, &ev));
    assert_int_equal(GCLOHCompact_Values_count(&ev), 2);
    assert_int_equal(GCLOHCompact_Values_TimeRelocate(&ev, 1), 8);
    assert_int_equal(GCLOHCompact_Values_ZeroRefs(&ev, 1), 10);
    assert_false(evgen_reader_next(r, &ev));
    evgen_reader_close(r);
    std::free(trace);
}

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fire_and_read_from_cxx),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
