/* evgen/manifest_end.h — closes a manifest: undefines every manifest macro so that the manifest
 * can be included again with other definitions. No include guard, on purpose. */
#undef EVENT_PROVIDER
#undef KNOWN_EVENT
#undef EVENT_FIELD
#undef EVENT_ARRAY
#undef EVENT_VERSION
#undef EVENT_LEGACY_FIELD
#undef EVENT_VERSION_ATTRIBUTES
