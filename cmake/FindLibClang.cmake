# FindLibClang.cmake — finds libclang's C API (clang-c/Index.h and libclang.so).
# Debian installs it under /usr/lib/llvm-<N>/ (package libclang-dev); llvm-config, when present,
# says where. Defines the imported target LibClang::LibClang.
find_program(LLVM_CONFIG_EXECUTABLE NAMES llvm-config llvm-config-19 llvm-config-18 llvm-config-17 llvm-config-16
             llvm-config-15 llvm-config-14)
set(_libclang_hints)
if(LLVM_CONFIG_EXECUTABLE)
    execute_process(COMMAND ${LLVM_CONFIG_EXECUTABLE} --prefix OUTPUT_VARIABLE _llvm_prefix
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    list(APPEND _libclang_hints "${_llvm_prefix}")
endif()
file(GLOB _llvm_dirs LIST_DIRECTORIES true /usr/lib/llvm-*)
list(SORT _llvm_dirs COMPARE NATURAL ORDER DESCENDING)
list(APPEND _libclang_hints ${_llvm_dirs})

find_path(LibClang_INCLUDE_DIR clang-c/Index.h HINTS ${_libclang_hints} PATH_SUFFIXES include)
find_library(LibClang_LIBRARY NAMES clang libclang HINTS ${_libclang_hints} PATH_SUFFIXES lib)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang REQUIRED_VARS LibClang_LIBRARY LibClang_INCLUDE_DIR
    FAIL_MESSAGE "libclang not found: install it with `apt-get install libclang-dev`")

if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
    add_library(LibClang::LibClang UNKNOWN IMPORTED)
    set_target_properties(LibClang::LibClang PROPERTIES
        IMPORTED_LOCATION "${LibClang_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${LibClang_INCLUDE_DIR}")
endif()
mark_as_advanced(LibClang_INCLUDE_DIR LibClang_LIBRARY LLVM_CONFIG_EXECUTABLE)
