# EvgenAddManifest.cmake — evgen_add_manifest(): generate a manifest's code at build time.
#
#   evgen_add_manifest(NAME gcevents MANIFEST manifest/gcevents.h [LOCK manifest/gcevents.lock]
#                      [INCLUDE_DIRS dir...] [DEFINES NAME=VALUE...] [TESTS])
#
# gives the libraries NAME_runtime (the generated FireEtw serializers, on evgen_runtime) and
# NAME_reader (the versioned accessors, on evgen_reader), and with TESTS the library
# NAME_fire_all (a harness firing every event version). The code is
# regenerated when the manifest, its lock or evgen changes; with LOCK, generation runs the
# checks of `evgen check` and the build stops at the manifest line of a breaking change.
function(evgen_add_manifest)
    cmake_parse_arguments(M "TESTS" "NAME;MANIFEST;LOCK" "INCLUDE_DIRS;DEFINES" ${ARGN})
    if(NOT M_NAME OR NOT M_MANIFEST)
        message(FATAL_ERROR "evgen_add_manifest: NAME and MANIFEST are required")
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
    set(depends evgen "${manifest}")
    if(M_LOCK)
        get_filename_component(lock "${M_LOCK}" ABSOLUTE)
        list(APPEND args --lock "${lock}")
        list(APPEND depends "${lock}")
    endif()
    foreach(dir IN LISTS M_INCLUDE_DIRS)
        get_filename_component(dir "${dir}" ABSOLUTE)
        list(APPEND args "-I${dir}")
    endforeach()
    foreach(def IN LISTS M_DEFINES)
        list(APPEND args "-D${def}")
    endforeach()
    set(outputs "${out}/${M_NAME}_runtime.h" "${out}/${M_NAME}_runtime.c" "${out}/${M_NAME}_reader.h"
                "${out}/${M_NAME}_reader.c")
    if(M_TESTS)
        list(APPEND args --tests)
        list(APPEND outputs "${out}/${M_NAME}_fire_all.c" "${out}/${M_NAME}_read_all.c")
    endif()
    add_custom_command(
        OUTPUT ${outputs}
        COMMAND evgen ${args}
        DEPENDS ${depends}
        WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
        COMMENT "evgen: generating ${M_NAME} from ${manifest_rel}"
        VERBATIM)

    add_library(${M_NAME}_runtime STATIC "${out}/${M_NAME}_runtime.c")
    target_include_directories(${M_NAME}_runtime PUBLIC "${out}" "${manifest_dir}" ${M_INCLUDE_DIRS})
    target_compile_definitions(${M_NAME}_runtime PUBLIC ${M_DEFINES})
    target_link_libraries(${M_NAME}_runtime PUBLIC evgen_runtime evgen_manifest_language)
    # The reader side: the offset tables and inline accessors, on libevgen-reader.
    if(TARGET evgen_reader)
        add_library(${M_NAME}_reader STATIC "${out}/${M_NAME}_reader.c")
        target_include_directories(${M_NAME}_reader PUBLIC "${out}" "${manifest_dir}" ${M_INCLUDE_DIRS})
        target_link_libraries(${M_NAME}_reader PUBLIC evgen_reader evgen_manifest_language)
        if(M_TESTS)
            add_library(${M_NAME}_read_all STATIC "${out}/${M_NAME}_read_all.c")
            target_link_libraries(${M_NAME}_read_all PUBLIC ${M_NAME}_reader)
        endif()
    endif()
    if(M_TESTS)
        add_library(${M_NAME}_fire_all STATIC "${out}/${M_NAME}_fire_all.c")
        target_link_libraries(${M_NAME}_fire_all PUBLIC ${M_NAME}_runtime)
    endif()
endfunction()
