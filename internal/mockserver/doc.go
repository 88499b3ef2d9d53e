// Package mockserver is the Event Notifications Configuration Service in
// memory: the twelve operations of the service spec and the JWT endpoint
// GET /auth/jwt/generate/{accountId}, with the spec's status codes,
// messages and error bodies. The provider's unit and acceptance tests run
// against it, and cmd/eventnotify-mock serves it on its own.
//
// Its wire types are written from the spec alone; the package does not
// import internal/client, so that a JSON name misread on either side
// fails a test.
//
// A Server is an http.Handler. Every request goes through, in order: route
// matching, the configured latency (a timer that gives up when the
// request's context is done), fault injection, the method check,
// authentication, then the operation. Every request is counted and logged
// when it ends, whatever its outcome. One mutex guards all state; it is
// never held while waiting or writing a response.
//
// # Authentication
//
// JWTs are HS256-signed (stdlib HMAC, no JWT module) and carry sub (the
// user name), accountId, iat and exp. The JWT endpoint's exp is rounded up
// to a whole second, so a token lives at least the configured TTL. Every
// service call checks the bearer token: none, a malformed one, another
// algorithm, a bad signature, missing sub/accountId/exp or an expired one
// gives 401 with no body (and a WWW-Authenticate header); a token whose
// accountId is not the path's gives 403 {"error":"Forbidden","messages":
// ["Access Denied"],"path":...}. The catalogue operations (getLogLevels,
// listEvents, getDestinationTypes) take any valid token. JWT generation takes Basic auth with the user's password,
// or with the user name "PLATFORM_TOKEN.<username>" and the user's API
// token; a user with an OTP also needs X-Platform-OTP when logging in with
// the password, else 401 (an API-token login needs none: users with
// two-factor authentication use an API token instead of the password,
// SERVICE.md authentication rule 4); a user limited to other accounts gets
// the 403 body.
//
// # Where the mock is stricter than the spec
//
//   - Unknown members of a SubscriptionCreate, values of the wrong JSON
//     type, and server-managed fields on input are 400s (the spec only says
//     server-managed fields "are not accepted").
//   - Enum values are case-sensitive; a {subscriptionId} that is not a uuid
//     is a 400 before existence is checked.
//   - A bulk request with both subscriptionIds and subscriptions is a 400
//     even when one of them is empty; unknown members of a bulk request,
//     and subscriptionIds that are not an array of strings, are 400s too.
//     (An id that is not a uuid, or a repeated one, is only that item's
//     404.)
//   - Request bodies over 32 MiB are a 400.
//   - An account holds at most Config.MaxSubscriptions (100,000) subscriptions written by the
//     service's operations, and as many subscriptions of its topics: a create, a replacement
//     or a topic call that would make it hold more is a 409 (see Limits below).
//   - Paths it does not serve answer 404 with error "Not Found", not the
//     spec's "Entity not found": only missing entities get that value.
//
// # Decisions where the spec is silent
//
// Errors and validation:
//   - 400 bodies use error "Bad Request". A missing, empty or null body:
//     "Required request body is missing"; a body that is not JSON:
//     "Malformed JSON request body"; JSON that is not an object: "Request
//     body must be a JSON object"; over 32 MiB: "Request body is too large".
//   - The request's Content-Type is not checked, and unknown query
//     parameters are ignored.
//   - A null member counts as absent everywhere.
//   - {accountId} is any non-empty path segment: every account exists,
//     empty until written, and no operation answers "unknown account".
//   - updateSubscriptions, createSubscriptions and updateSubscription validate each SubscriptionCreate and answer one
//     400 with all messages: first the spec's "Must provide a valid
//     eventName", "Must provide a valid destinationType", "Must provide a
//     valid logLevel" (per item, in item order), then "Invalid value for
//     <field>: must be a string" (or "a boolean" for enabled), then
//     "<field> is managed by the service and cannot be provided" for
//     subscriptionId, accountId, createdDate, lastUpdatedDate, createdBy,
//     lastUpdatedUserId, then "Unknown field: <name>" for any other member
//     (destinationEmail included: it is not part of SubscriptionCreate).
//     A non-object item: "Each subscription must be a JSON object".
//   - A valid eventName is any non-blank string (the events catalogue is
//     not consulted); destinationType must be EVENT_STREAMS or EMAIL and
//     logLevel INFO, WARNING or ERROR, exactly (case-sensitive).
//   - updateSubscriptions and createSubscriptions: "subscriptions is required" when the member is
//     absent, "subscriptions must be an array" when it is not one.
//     updateSubscription: "subscription is required", "subscription must be a
//     JSON object". Nothing is stored unless the whole body is valid.
//   - {subscriptionId} that is not a 36-character uuid: 400 `Invalid
//     subscriptionId "<value>": must be a uuid` (checked before the body
//     and before existence). Ids compare case-insensitively.
//   - 404 "Entity not found" messages: "No subscriptions found for account
//     <accountId>" (listSubscribedEventsForAccount with SetEmptyListStatus(404), and
//     deleteSubscriptionForAccount) and
//     "No subscription found with id <subscriptionId>" (getSubscribedEventForAccount, updateSubscription and deleteSubscription,
//     also when the account has none).
//   - An unknown path: 404 {"error":"Not Found","messages":["No endpoint
//     <METHOD> <path>"]}; a known path with another method: 405
//     {"error":"Method Not Allowed","messages":["Request method '<M>' is
//     not supported"]} with an Allow header, before authentication.
//   - 500 bodies: error "Internal server error", message "An unexpected
//     error occurred", and a fresh uuid errorId.
//
// Subscriptions:
//   - createdBy and lastUpdatedUserId are the JWT's sub. createdDate and
//     lastUpdatedDate are Unix milliseconds; lastUpdatedDate is never
//     before createdDate. enabled defaults to true on create and on the
//     full replacement of updateSubscription.
//   - updateSubscriptions replaces the account's whole set with new subscriptions
//     (new ids): 201 when the account had none and some were supplied, 204
//     when it had none and none were supplied, 200 otherwise (an empty
//     supplied list deletes everything and answers 200 with an empty list).
//     Its body, and createSubscriptions's 201 body, is {"subscriptions":[...]}
//     without paginationMetadata. createSubscriptions with an empty list: 204.
//   - updateSubscription replaces every client-settable field (a full PUT).
//
// Listing (listSubscribedEventsForAccount):
//   - pageNumber is 0-based (default 0); pageSize defaults to 20 and is
//     clamped to 100 (Config). Empty values count as absent. A pageNumber
//     that is not an integer >= 0: 400 "pageNumber must be an integer
//     greater than or equal to 0, got "<v>""; a pageSize that is not an
//     integer >= 1: 400 "pageSize must be an integer greater than or equal
//     to 1, got "<v>"".
//   - sortBy accepts any Subscription JSON name, else 400 `Invalid sortBy
//     "<v>". Supported values are: subscriptionId, ...`; sortDirection
//     accepts ASC or DESC in any case, else 400 `Invalid sortDirection
//     "<v>". Supported values are: ASC, DESC`. Order: the sortBy field,
//     then createdDate, then subscriptionId, ascending; DESC is the exact
//     reverse. The default is createdDate ASC, then subscriptionId.
//   - A page past the end is 200 with "subscriptions": [] and metadata.
//     first is pageNumber == 0, last is pageNumber >= totalPages-1.
//   - An account without subscriptions: 204 by default; SetEmptyListStatus
//     selects 404 or a 200 empty page instead.
//   - ApplyProfile (profile.go) serves a profile that eventnotify-probe wrote: the shapes
//     above, the page sizes, the sortBy values accepted (others: the 400 above, naming
//     only those), the bulk update refused, and answers without a Date header.
//   - Performance: each account keeps, per sortBy field, a sorted slice of
//     pointers built on the first list after a write and dropped by any
//     write to the account; DESC walks it backwards. Paging through an
//     unchanged account is O(page) per request (after one sort).
//
// Bulk (bulkOperationsOnSubscriptionsForAccount):
//   - Rules are checked in the order: body, "Operation is required"
//     (absent, null or blank), "Invalid operation. Supported operations
//     are: delete, update" (case-sensitive), "Cannot provide both
//     subscriptionIds and subscriptions in the same request" (both non-
//     null, even if empty), "subscriptionIds is required for delete
//     operation" / "subscriptions is required for update operation",
//     "Subscription list cannot be empty" (the operation's list is []),
//     "subscriptionIds must be an array of uuid strings" / "subscriptions
//     must be an array", then "Unknown field: <name>".
//   - Items are applied one after the other, with no rollback (a failed
//     item leaves the others applied), and answered in order, one
//     OperationStatus each, subscriptionId echoed as sent ("" for an item
//     that is not an object). Delete: 204
//     "Deleted successfully" or 404 "Subscription not found" (also for an
//     id that is not a uuid, or a repeated id). Update items are
//     Subscription objects merged into the stored one (absent or null
//     fields are kept; destinationEmail may be set here, unlike on
//     create): 200 "Updated successfully"; 404 "Subscription not
//     found"; 400 "subscriptionId is required" without an id, "Each
//     subscription must be a JSON object", "Unable to update createdDate"
//     (likewise accountId and createdBy) when the item changes it, the
//     "Must provide a valid ..." messages for invalid values, "Unknown
//     field: <name>"; several problems joined with "; ". lastUpdatedDate
//     and lastUpdatedUserId in an item are ignored.
//     SetBulkUpdateRefused(true) refuses every update request as a whole
//     (400 "Invalid subscriptions: unsupported item shape"), as a service
//     expecting another item shape would; deletes are served as usual.
//     RefuseBulkUpdateItems(ids...) answers the items of those ids 400
//     "Unable to update subscription: refused by the service" and leaves
//     their subscriptions as they are, the other items served as usual.
//
// Topics (createEventStreamTopicAndSubscription):
//   - "<field> cannot be blank" for each blank required field, in the
//     order eventStreamsEnvironmentId, eventStreamsSubscriptionName,
//     topicName; non-string values and unknown members are 400 too.
//   - Topics are kept per account by environment and topic name, apart
//     from the account's subscriptions (listSubscribedEventsForAccount
//     does not show them). The first call creates the topic; each call
//     adds a subscription, so subscriptionCount is 1, 2, 3... for the same
//     environment and topic. A non-empty topicDescription replaces the
//     stored one; an empty one keeps it.
//
// Catalogues (getLogLevels, listEvents and getDestinationTypes): the wrapper members are "events",
// "logLevels" and "destinationTypes"; records are {"name","description"}.
// SetCatalogueShape selects the other shapes of SERVICE.md.
//
// Test hooks:
//   - Faults are checked in injection order; the first that fires answers.
//     Ratio r accumulates per matching request and fires when it reaches
//     1, so r = 0.5 fires on the 2nd, 4th, ... matching request; Count
//     counts fired answers and removes the fault when spent. Status 0
//     means 500. The default body of a fault is the spec's error body with
//     message "Injected fault" ("Access Denied" for 403, "An unexpected
//     error occurred" for 500), no body for 401 or statuses below 400.
//     Drop hijacks and closes the connection; where hijacking is not
//     possible it aborts the handler with http.ErrAbortHandler.
//   - Faults that change an answer rather than replace it fire only on
//     their operation (faults_tamper.go): ClaimLast serves a listing page
//     with last = true; ShiftPages deletes the first subscriptions of the
//     default listing order once a page is served (ShiftReplace stores a
//     copy of each under a new id at the end, so no count changes);
//     DropStatuses drops the last items' statuses from a 207, after the
//     work with AfterWork, else the items are neither done nor answered;
//     Truncate cuts a success answer's body after its first Truncate
//     bytes, the work done (on the routes and methods the fault names).
//   - A Later fault answers before the work and keeps the request: it is
//     carried out, as it came, just before the Later-th read (GET) of the
//     same route that follows (a client's Later-th look at the account),
//     and never without one; PendingLater counts what has not landed. An
//     Omit fault (with AfterWork) keeps a success's status and removes the
//     first Omit subscriptions from its answer's list; a ListAccount fault
//     (with AfterWork) lists the whole account in it instead.
//   - HoldAnswers carries matching requests out and keeps their answers
//     back until Release (or the client goes away), as a slow network
//     would: Arrived is closed once the first one is done, so a test can
//     act (signal the plugin) while the client waits for the answer to a
//     write the service has made. Holds come before faults (faults_hold.go).
//   - The service's clock dates subscriptions and the Date header of every
//     answer; SetClockOffset runs it ahead of (or behind) the real clock,
//     SetDateOffset runs the Date header ahead of (or behind) it, StopClock
//     makes it stand still at a chosen instant until ResumeClock. OnFaulted
//     tells a test when, on that clock, a request answered by a fault
//     before any work came in and was answered. JWTs are dated by the real
//     clock.
//   - The request log is in the order requests finished; Status is 0 when
//     nothing was written (client gone during latency, Drop). It keeps the
//     latest Config.RequestLogSize requests (10,000), paths cut to
//     MaxLoggedPath bytes; Count and EachCount count every request.
//   - SetJWTTTL(0) restores 5m; a negative TTL issues expired tokens.
//   - PutSubscription stores Enabled as given (false when unset).
//
// # Limits: what clients can make it hold
//
// The spec states no quota; the mock has bounds so that no client can fill its memory (the demo
// credentials are public and /_mock/events takes none). Subscriptions: a create, a replacement or
// a topic call that would make the account hold more than Config.MaxSubscriptions (of topics:
// counted apart) is answered 409 {"error":"Conflict","messages":["Account <id> would hold <n>
// subscriptions: the mock keeps at most <limit> per account (eventnotify-mock
// -max-subscriptions); delete some first. Nothing was stored"]} and stores nothing ("topic
// subscriptions" for a topic call). Refused, not the oldest dropped: a subscription is what a
// client holds in its state, and one deleted behind its back would be the service lying. 409, not
// 429: clients (the provider among them) retry a 429 as a throttle that lifts, and a full
// account stays full until something is deleted; not 400, which says the request itself is
// malformed (a client may split a batch to find the bad item). The test hooks (PutSubscription,
// SeedSubscriptions) are not bounded.
//
// Deliveries: the latest Config.MaxDeliveries (100,000) are kept and the oldest dropped, counted
// (DroppedDeliveries), as the request log keeps the latest requests: they are the mock's record
// for tests to read, not state, refusing an event would fail the test that fires it, and the
// latest are the ones a test looks at. GET /_mock/deliveries numbers them from 1 in the order
// recorded and answers those after ?after= (default 0), at most ?limit= (1 to
// MaxDeliveriesPage, 10,000, the default): {"deliveries", "dropped", "next", "more"}; a bad
// value is a 400 "after must be an integer greater than or equal to 0, got "<v>"" or "limit
// must be an integer from 1 to 10000, got "<v>"" (limits.go, deliveries.go).
//
// # Deliveries: the mock's reading of who is notified
//
// The spec describes no way to send a notification, and does not show what one looks like;
// it states the rule: a subscription binds an event to a destination with the minimum log
// level that triggers a notification (INFO < WARNING < ERROR), and a disabled subscription
// notifies nobody. FireEvent (and HandleEvents, which cmd/eventnotify-mock serves at
// POST /_mock/events) applies that rule to the store: one Delivery per enabled subscription of
// the account whose event name equals the event's without regard to case and whose logLevel
// ranks at or below the event's. Deliveries (GET /_mock/deliveries, by pages) lists them and
// ResetDeliveries (POST /_mock/reset) clears them. A Delivery is this mock's record, not the
// service's delivery format. The rule is written here apart from the provider's
// (internal/provider/notified_for.go), on purpose. An account is unknown to FireEvent when it
// holds no subscription and no user may access it (a user with no account list may access
// every one): 404; a level other than INFO, WARNING or ERROR (exactly) is a 400 (deliveries.go).
package mockserver
