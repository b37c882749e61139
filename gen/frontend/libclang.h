/* frontend/libclang.h — the libclang C API as the front end calls it: loaded with dlopen(3) the
 * first time a manifest is read (evgen_libclang_load), not linked. The trace commands (dump, convert,
 * export...) never read a manifest with libclang, and linking it cost every evgen process the loading
 * and relocation of libclang and LLVM: ~17 ms of a 20 ms `evgen dump` of a small trace. The only
 * header that includes clang-c/Index.h; each clang_ function the front end calls is a pointer here,
 * and a name that is not (a new call) fails to link, as it should: add it to the list. */
#ifndef EVGEN_FRONTEND_LIBCLANG_H
#define EVGEN_FRONTEND_LIBCLANG_H

#include <clang-c/Index.h>

/* X(name) for every clang_name the front end calls. */
#define EVGEN_LIBCLANG_FUNCTIONS(X) \
    X(Cursor_Evaluate) \
    X(Cursor_getOffsetOfField) \
    X(Cursor_isBitField) \
    X(EvalResult_dispose) \
    X(EvalResult_getAsLongLong) \
    X(EvalResult_getAsStr) \
    X(EvalResult_getAsUnsigned) \
    X(EvalResult_getKind) \
    X(Type_getAlignOf) \
    X(Type_getNamedType) \
    X(Type_getSizeOf) \
    X(Type_visitFields) \
    X(createIndex) \
    X(disposeDiagnostic) \
    X(disposeIndex) \
    X(disposeString) \
    X(disposeTokens) \
    X(disposeTranslationUnit) \
    X(getCString) \
    X(getCanonicalType) \
    X(getChildDiagnostics) \
    X(getCursorExtent) \
    X(getCursorKind) \
    X(getCursorLocation) \
    X(getCursorSpelling) \
    X(getCursorType) \
    X(getCursorUSR) \
    X(getDiagnostic) \
    X(getDiagnosticInSet) \
    X(getDiagnosticLocation) \
    X(getDiagnosticSeverity) \
    X(getDiagnosticSpelling) \
    X(getEnumConstantDeclValue) \
    X(getExpansionLocation) \
    X(getFileContents) \
    X(getFileLocation) \
    X(getFileName) \
    X(getInclusions) \
    X(getNumDiagnostics) \
    X(getNumDiagnosticsInSet) \
    X(getPointeeType) \
    X(getRangeStart) \
    X(getSpellingLocation) \
    X(getTokenKind) \
    X(getTokenLocation) \
    X(getTokenSpelling) \
    X(getTranslationUnitCursor) \
    X(getTypeDeclaration) \
    X(getTypeSpelling) \
    X(getTypedefDeclUnderlyingType) \
    X(getTypedefName) \
    X(parseTranslationUnit2) \
    X(tokenize) \
    X(visitChildren)

#define EVGEN_LIBCLANG_POINTER(name) __typeof__(&clang_##name) name;
typedef struct evgen_libclang_api {
    EVGEN_LIBCLANG_FUNCTIONS(EVGEN_LIBCLANG_POINTER)
} evgen_libclang_api;
#undef EVGEN_LIBCLANG_POINTER

extern evgen_libclang_api evgen_libclang;

/* Loads libclang (the library the build found, EVGEN_LIBCLANG_PATH) and every function above, once;
 * 0, or -1 with *why saying what failed (a static string or dlerror's, valid until the next call). */
int evgen_libclang_load(const char **why);

#define clang_Cursor_Evaluate (evgen_libclang.Cursor_Evaluate)
#define clang_Cursor_getOffsetOfField (evgen_libclang.Cursor_getOffsetOfField)
#define clang_Cursor_isBitField (evgen_libclang.Cursor_isBitField)
#define clang_EvalResult_dispose (evgen_libclang.EvalResult_dispose)
#define clang_EvalResult_getAsLongLong (evgen_libclang.EvalResult_getAsLongLong)
#define clang_EvalResult_getAsStr (evgen_libclang.EvalResult_getAsStr)
#define clang_EvalResult_getAsUnsigned (evgen_libclang.EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind (evgen_libclang.EvalResult_getKind)
#define clang_Type_getAlignOf (evgen_libclang.Type_getAlignOf)
#define clang_Type_getNamedType (evgen_libclang.Type_getNamedType)
#define clang_Type_getSizeOf (evgen_libclang.Type_getSizeOf)
#define clang_Type_visitFields (evgen_libclang.Type_visitFields)
#define clang_createIndex (evgen_libclang.createIndex)
#define clang_disposeDiagnostic (evgen_libclang.disposeDiagnostic)
#define clang_disposeIndex (evgen_libclang.disposeIndex)
#define clang_disposeString (evgen_libclang.disposeString)
#define clang_disposeTokens (evgen_libclang.disposeTokens)
#define clang_disposeTranslationUnit (evgen_libclang.disposeTranslationUnit)
#define clang_getCString (evgen_libclang.getCString)
#define clang_getCanonicalType (evgen_libclang.getCanonicalType)
#define clang_getChildDiagnostics (evgen_libclang.getChildDiagnostics)
#define clang_getCursorExtent (evgen_libclang.getCursorExtent)
#define clang_getCursorKind (evgen_libclang.getCursorKind)
#define clang_getCursorLocation (evgen_libclang.getCursorLocation)
#define clang_getCursorSpelling (evgen_libclang.getCursorSpelling)
#define clang_getCursorType (evgen_libclang.getCursorType)
#define clang_getCursorUSR (evgen_libclang.getCursorUSR)
#define clang_getDiagnostic (evgen_libclang.getDiagnostic)
#define clang_getDiagnosticInSet (evgen_libclang.getDiagnosticInSet)
#define clang_getDiagnosticLocation (evgen_libclang.getDiagnosticLocation)
#define clang_getDiagnosticSeverity (evgen_libclang.getDiagnosticSeverity)
#define clang_getDiagnosticSpelling (evgen_libclang.getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue (evgen_libclang.getEnumConstantDeclValue)
#define clang_getExpansionLocation (evgen_libclang.getExpansionLocation)
#define clang_getFileContents (evgen_libclang.getFileContents)
#define clang_getFileLocation (evgen_libclang.getFileLocation)
#define clang_getFileName (evgen_libclang.getFileName)
#define clang_getInclusions (evgen_libclang.getInclusions)
#define clang_getNumDiagnostics (evgen_libclang.getNumDiagnostics)
#define clang_getNumDiagnosticsInSet (evgen_libclang.getNumDiagnosticsInSet)
#define clang_getPointeeType (evgen_libclang.getPointeeType)
#define clang_getRangeStart (evgen_libclang.getRangeStart)
#define clang_getSpellingLocation (evgen_libclang.getSpellingLocation)
#define clang_getTokenKind (evgen_libclang.getTokenKind)
#define clang_getTokenLocation (evgen_libclang.getTokenLocation)
#define clang_getTokenSpelling (evgen_libclang.getTokenSpelling)
#define clang_getTranslationUnitCursor (evgen_libclang.getTranslationUnitCursor)
#define clang_getTypeDeclaration (evgen_libclang.getTypeDeclaration)
#define clang_getTypeSpelling (evgen_libclang.getTypeSpelling)
#define clang_getTypedefDeclUnderlyingType (evgen_libclang.getTypedefDeclUnderlyingType)
#define clang_getTypedefName (evgen_libclang.getTypedefName)
#define clang_parseTranslationUnit2 (evgen_libclang.parseTranslationUnit2)
#define clang_tokenize (evgen_libclang.tokenize)
#define clang_visitChildren (evgen_libclang.visitChildren)

#endif /* EVGEN_FRONTEND_LIBCLANG_H */
