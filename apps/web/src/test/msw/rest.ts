import { HttpResponse } from "msw";
import { ERROR_STATUS, type ApiErrorBody, type ErrorCode } from "@quad/contracts";

/** A REST error answer shaped like the server's (docs/product.md "Errors"). */
export function restError(code: ErrorCode, message: string = code, extra: Partial<ApiErrorBody> = {}) {
  const body: ApiErrorBody = { message, code, ...extra };
  return HttpResponse.json(body, { status: ERROR_STATUS[code] });
}
