# EvgenAddManifest.cmake — evgen_add_manifest(): generate a manifest's code at build time.
#
#   evgen_add_manifest(NAME gcevents MANIFEST manifest/gcevents.h [LOCK manifest/gcevents.lock]
#                      [INCLUDE_DIRS dir...] [DEFINES NAME=VALUE...] [TESTS] [GOLDEN dir])
#
# gives the libraries NAME_runtime (the generated FireEtw serializers, on evgen::runtime) and
# NAME_reader (the versioned accessors, on evgen::reader), both with evgen::manifest_language,
# the target NAME_generate (the generation alone, for targets of other directories that use the
# generated files: add_dependencies(them NAME_generate)), and with TESTS the libraries
# NAME_fire_all (a harness firing every event version) and NAME_read_all. With LOCK, generation
# runs the checks of `evgen check` and the build stops at the manifest line of a breaking change.
#
# GOLDEN dir (with LOCK; implies TESTS): the test NAME_compat, registered with add_test (call
# enable_testing() or include(CTest) first) — every version of the manifest and of its lock is held
# by a golden trace of dir (else it names the `evgen lock --traces` command that records one),
# every golden trace reads with today's generated reader, every field equal to the value that was
# written, and a trace written today reads with the reader generated from dir's oldest lock
# snapshot. It needs no test framework (evgen::compat, compat_main.c).
#
# The code is regenerated when the manifest, any header it includes (evgen writes a depfile:
# CMake >= 3.20 with a Ninja or Makefile generator), its lock or the evgen executable changes,
# and only then; each build runs evgen once per manifest, whatever the generator and -j. With
# other generators the depfile is not used, and the headers of the manifest's directory and of
# INCLUDE_DIRS stand in for the ones it includes.
#
# The same function serves evgen's own build tree and projects that use an installed evgen
# (find_package(evgen)): it names the targets evgen::evgen, evgen::runtime, evgen::reader,
# evgen::compat and evgen::manifest_language, imported targets there and aliases of evgen's own
# targets here.
function(evgen_add_manifest)
    cmake_parse_arguments(M "TESTS" "NAME;MANIFEST;LOCK;GOLDEN" "INCLUDE_DIRS;DEFINES" ${ARGN})
    if(NOT M_NAME OR NOT M_MANIFEST)
        message(FATAL_ERROR "evgen_add_manifest: NAME and MANIFEST are required")
    endif()
    if(M_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "evgen_add_manifest: unexpected arguments: ${M_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT TARGET evgen::evgen)
        message(FATAL_ERROR "evgen_add_manifest: no evgen::evgen target: call find_package(evgen) first")
    endif()
    if(M_GOLDEN)
        if(NOT M_LOCK)
            message(FATAL_ERROR "evgen_add_manifest(${M_NAME}): GOLDEN needs LOCK: golden traces are recorded "
                                "for the versions a lock freezes")
        endif()
        set(M_TESTS TRUE) # the compatibility test runs the fire-all and read-all harnesses
    endif()
    get_filename_component(manifest "${M_MANIFEST}" ABSOLUTE)
    if(NOT EXISTS "${manifest}")
        message(FATAL_ERROR "evgen_add_manifest: manifest '${M_MANIFEST}' does not exist")
    endif()
    # Generated files name the manifest by its path relative to the source tree, never an
    # absolute path: the same manifest gives byte-identical output everywhere.
    file(RELATIVE_PATH manifest_rel "${CMAKE_SOURCE_DIR}" "${manifest}")
    get_filename_component(manifest_dir "${manifest}" DIRECTORY)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/evgen/${M_NAME}")
    file(MAKE_DIRECTORY "${out}")

    set(args gen "${manifest_rel}" -o "${out}" --name "${M_NAME}" --quiet)
    # evgen::evgen as a dependency: a new evgen regenerates (a target-level dependency too, when
    # it is built in the same tree).
    set(depends evgen::evgen "${manifest}")
    if(M_LOCK)
        get_filename_component(lock "${M_LOCK}" ABSOLUTE)
        list(APPEND args --lock "${lock}")
        list(APPEND depends "${lock}")
    endif()
    set(include_dirs)
    foreach(dir IN LISTS M_INCLUDE_DIRS)
        get_filename_component(dir "${dir}" ABSOLUTE)
        list(APPEND include_dirs "${dir}")
        list(APPEND args "-I${dir}")
    endforeach()
    foreach(def IN LISTS M_DEFINES)
        list(APPEND args "-D${def}")
    endforeach()
    # NAME_runtime.h first: the depfile names the first output as its target.
    set(outputs "${out}/${M_NAME}_runtime.h" "${out}/${M_NAME}_runtime.c" "${out}/${M_NAME}_reader.h"
                "${out}/${M_NAME}_reader.c")
    if(M_TESTS)
        list(APPEND args --tests)
        list(APPEND outputs "${out}/${M_NAME}_fire_all.c" "${out}/${M_NAME}_read_all.c")
    endif()

    # The headers the manifest includes: from evgen's depfile where the generator reads depfiles
    # of custom commands, else the headers beside the manifest and in INCLUDE_DIRS.
    set(depfile_args)
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 AND CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
        set(depfile "${out}/${M_NAME}.d")
        list(APPEND args --depfile "${depfile}")
        set(depfile_args DEPFILE "${depfile}")
    else()
        set(globs "${manifest_dir}/*.h")
        foreach(dir IN LISTS include_dirs)
            list(APPEND globs "${dir}/*.h")
        endforeach()
        file(GLOB headers ${globs})
        list(APPEND depends ${headers})
        get_property(warned GLOBAL PROPERTY EVGEN_DEPFILE_FALLBACK_WARNED)
        if(NOT warned)
            set_property(GLOBAL PROPERTY EVGEN_DEPFILE_FALLBACK_WARNED TRUE)
            message(STATUS "evgen_add_manifest: the ${CMAKE_GENERATOR} generator (CMake ${CMAKE_VERSION}) takes "
                           "no depfile: generated code depends on the headers beside each manifest and in "
                           "its INCLUDE_DIRS, not on exactly those it includes")
        endif()
    endif()
    # evgen rewrites an output only when its content changes. Ninja re-checks outputs after the
    # command (restat), so unchanged files recompile nothing; Make does not, and would run evgen
    # on every build after an input is touched: there the outputs are touched.
    set(touch)
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
        set(touch COMMAND "${CMAKE_COMMAND}" -E touch_nocreate ${outputs})
    endif()

    # Depfile paths are absolute; CMP0116 NEW has CMake rewrite them for the generator whatever
    # policy version the calling project asks for.
    cmake_policy(PUSH)
    if(POLICY CMP0116)
        cmake_policy(SET CMP0116 NEW)
    endif()
    add_custom_command(
        OUTPUT ${outputs}
        COMMAND evgen::evgen ${args}
        ${touch}
        DEPENDS ${depends}
        ${depfile_args}
        WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
        COMMENT "evgen: generating ${M_NAME} from ${manifest_rel}"
        VERBATIM)
    cmake_policy(POP)

    # One target owns the generation. Every target that compiles a generated file depends on it,
    # so the command runs once per build: with Makefiles, each target listing the outputs as
    # sources would otherwise run evgen itself, concurrently under -j.
    add_custom_target(${M_NAME}_generate DEPENDS ${outputs})

    add_library(${M_NAME}_runtime STATIC "${out}/${M_NAME}_runtime.c")
    add_dependencies(${M_NAME}_runtime ${M_NAME}_generate)
    target_include_directories(${M_NAME}_runtime PUBLIC "${out}" "${manifest_dir}" ${M_INCLUDE_DIRS})
    target_compile_definitions(${M_NAME}_runtime PUBLIC ${M_DEFINES})
    target_link_libraries(${M_NAME}_runtime PUBLIC evgen::runtime evgen::manifest_language)
    # The reader side: the offset tables and inline accessors, on libevgen-reader.
    if(TARGET evgen::reader)
        add_library(${M_NAME}_reader STATIC "${out}/${M_NAME}_reader.c")
        add_dependencies(${M_NAME}_reader ${M_NAME}_generate)
        target_include_directories(${M_NAME}_reader PUBLIC "${out}" "${manifest_dir}" ${M_INCLUDE_DIRS})
        target_link_libraries(${M_NAME}_reader PUBLIC evgen::reader evgen::manifest_language)
        if(M_TESTS)
            add_library(${M_NAME}_read_all STATIC "${out}/${M_NAME}_read_all.c")
            target_link_libraries(${M_NAME}_read_all PUBLIC ${M_NAME}_reader)
        endif()
    endif()
    if(M_TESTS)
        add_library(${M_NAME}_fire_all STATIC "${out}/${M_NAME}_fire_all.c")
        target_link_libraries(${M_NAME}_fire_all PUBLIC ${M_NAME}_runtime)
    endif()
    if(M_GOLDEN)
        _evgen_add_compat_test("${M_NAME}" "${M_GOLDEN}" "${lock}" "${manifest_rel}")
    endif()
endfunction()

# The test NAME_compat of evgen_add_manifest(... GOLDEN dir): compat_main.c on evgen::compat, with
# today's harnesses and, when the golden directory holds a lock snapshot (evgen lock --traces
# writes one beside each golden trace), the reader generated from the oldest of them.
function(_evgen_add_compat_test name golden lock manifest_rel)
    if(NOT TARGET evgen::compat OR NOT EVGEN_COMPAT_MAIN OR NOT TARGET ${name}_read_all)
        message(FATAL_ERROR "evgen_add_manifest(${name}): GOLDEN needs evgen's compatibility test "
                            "(evgen::compat and compat_main.c), which this evgen lacks")
    endif()
    get_filename_component(golden "${golden}" ABSOLUTE)
    if(NOT IS_DIRECTORY "${golden}")
        file(MAKE_DIRECTORY "${golden}")
    endif()
    set(defines "EVGEN_COMPAT_NAME=\"${name}\"" EVGEN_COMPAT_READ_ALL=${name}_read_all
                EVGEN_COMPAT_FIRE_ALL=${name}_fire_all)
    set(libs ${name}_read_all ${name}_fire_all evgen::compat)
    # CONFIGURE_DEPENDS: a snapshot recorded later reconfigures the build, and the test gains its
    # forward-compatibility check.
    file(GLOB snapshots CONFIGURE_DEPENDS "${golden}/*.lock")
    list(SORT snapshots COMPARE NATURAL)
    if(snapshots)
        list(GET snapshots 0 oldest)
        set(out "${CMAKE_CURRENT_BINARY_DIR}/evgen/${name}_oldest")
        file(MAKE_DIRECTORY "${out}")
        set(outputs "${out}/${name}_oldest_reader.h" "${out}/${name}_oldest_reader.c" "${out}/${name}_oldest_read_all.c")
        add_custom_command(
            OUTPUT ${outputs}
            COMMAND evgen::evgen gen --from-lock "${oldest}" -o "${out}" --name ${name}_oldest --tests --quiet
            DEPENDS evgen::evgen "${oldest}"
            COMMENT "evgen: the reader of ${name}'s oldest lock snapshot"
            VERBATIM)
        add_custom_target(${name}_oldest_generate DEPENDS ${outputs})
        add_library(${name}_oldest_reader STATIC "${out}/${name}_oldest_reader.c" "${out}/${name}_oldest_read_all.c")
        add_dependencies(${name}_oldest_reader ${name}_oldest_generate)
        target_include_directories(${name}_oldest_reader PUBLIC "${out}")
        target_link_libraries(${name}_oldest_reader PUBLIC evgen::reader evgen::manifest_language)
        get_filename_component(oldest_name "${oldest}" NAME)
        list(APPEND defines EVGEN_COMPAT_OLDEST_READ_ALL=${name}_oldest_read_all
                            "EVGEN_COMPAT_OLDEST_LOCK=\"${oldest_name}\"")
        list(APPEND libs ${name}_oldest_reader)
    endif()
    add_executable(${name}_compat "${EVGEN_COMPAT_MAIN}")
    target_compile_definitions(${name}_compat PRIVATE ${defines})
    target_link_libraries(${name}_compat PRIVATE ${libs})
    add_test(NAME ${name}_compat COMMAND ${name}_compat "${golden}" "${lock}" "${manifest_rel}"
             WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}")
endfunction()
