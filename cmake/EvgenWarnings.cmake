# EvgenWarnings.cmake — one place for the project's warning flags.
# evgen_target_warnings(target): -Wall -Wextra (and -Werror with EVGEN_WERROR) on a target.
function(evgen_target_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes)
    if(EVGEN_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
