# embed.cmake — turns text files into C string constants (cmake -P, at build time).
# Usage: cmake -DOUTPUT=out.c -DINPUTS="sym1=path1;sym2=path2" -P embed.cmake
set(content "/* Generated at build time by gen/embed.cmake. Do not edit. */\n")
foreach(pair IN LISTS INPUTS)
    string(REPLACE "=" ";" parts "${pair}")
    list(GET parts 0 symbol)
    list(GET parts 1 path)
    file(READ "${path}" hex HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(APPEND content "const char ${symbol}[] = {${bytes}0x00};\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
